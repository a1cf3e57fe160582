/** The routing skill: tells the agent which lore tool answers the question it would otherwise put to git or grep. */

export const SKILL_TEXT = `---
name: lore
description: Answers questions about a git repository's history through the lore MCP tools (lore_blame, lore_intent, lore_history, lore_cochange, lore_hotspots, lore_contributors, lore_status, lore_changes, lore_restore, lore_git) — faster and in fewer tokens than git. Use whenever you would run git blame, git log, git show or git shortlog, when you wonder why code is the way it is, before editing a file, to find what else usually changes with it, and to see or undo what you changed since a snapshot.
---

# lore: ask the index, not git

lore has indexed this repository's history. Its MCP tools answer in milliseconds with
compact JSON, each commit listed once. Reach for them before running git or grepping.

| Instead of | Ask |
| --- | --- |
| \`git blame FILE\` — who last changed these lines? | \`lore_blame\` { path, startLine?, endLine? } |
| \`git blame -L\` then \`git show SHA\` — why is this code like this? | \`lore_intent\` { path, startLine, endLine }: full commit messages and the other files each commit touched |
| \`git log --follow -- FILE\` — what happened to this file? | \`lore_history\` { path, limit? } (follows renames) |
| grepping for callers and tests — what else must change with this file? | \`lore_cochange\` { path }: files that historically change in the same commits |
| where does the churn (and the bugs) concentrate? | \`lore_hotspots\` { path?, limit? } |
| \`git shortlog -sn -- DIR\` — who knows this code, who should review? | \`lore_contributors\` { path? } |
| does lore work here, is an answer stale? | \`lore_status\` |
| what did I change (since my last edits, 10 minutes, an hour), committed or not? | \`lore_changes\` { since?, paths?, patch?, list? }: files with +/- since a snapshot of the work tree; list: true names the snapshots |
| put a file back as it was before my edits | \`lore_restore\` { paths, from }: \`from\` is a snapshot id from lore_changes; \`backup\` undoes it |
| any other read-only git command (git status, git diff, git grep …) | \`lore_git\` { args: ["status", "--short"] } |

- Paths are relative to the repository root. \`until\` answers as of a commit, branch or tag.
- An answer with \`truncated: true\` was cut to fit; its text says how to ask for the rest.
- Before editing a file you did not write: \`lore_intent\` on the lines you will touch, \`lore_cochange\` on the file.
- With \`lore setup --hook\`, lore snapshots the work tree before each of your edits; \`lore_changes\` then
  answers "what did I change" edit by edit, and \`lore_restore\` takes a file back to any snapshot.
- Errors come back as \`CODE: message\`; the message says what to change. Only if the lore
  tools are missing, fall back to git (or the CLI: \`lore <question> --json\`).
`;

/** The routing skill: tells the agent which lore tool answers the question it would otherwise put to git or grep. */

export const SKILL_TEXT = `---
name: lore
description: Answers questions about a git repository's history through the lore MCP tools (lore_blame, lore_intent, lore_history, lore_cochange, lore_hotspots, lore_contributors, lore_search, lore_status) — faster and in fewer tokens than git. Use whenever you would run git blame, git log (also -S, -G, --grep, -L), git show or git shortlog, when you wonder why code is the way it is, and before editing a file, to find what else usually changes with it.
---

# lore: ask the index, not git

lore has indexed this repository's history. Its MCP tools answer in milliseconds with
compact JSON, each commit listed once. Reach for them before running git or grepping.

| Instead of | Ask |
| --- | --- |
| \`git blame FILE\` — who last changed these lines? | \`lore_blame\` { path, startLine?, endLine? } |
| \`git blame -L\` then \`git show SHA\` — why is this code like this? | \`lore_intent\` { path, startLine, endLine }: full commit messages and the other files each commit touched |
| \`git log --follow -- FILE\` — what happened to this file? | \`lore_history\` { path, limit? } (follows renames) |
| \`git log -L A,B:FILE\` / \`-L :func:FILE\` — how did these lines evolve? | \`lore_history\` { path, lines: "A,B" } or { path, lines: ":func" }: each commit's range and diff |
| \`git log --grep=WORD\` — was there a commit about this? | \`lore_search\` { query }: every word, "a phrase", prefix*; ranked, with snippet |
| \`git log -S TEXT\` / \`-G REGEX\` — which commit added or removed this? | \`lore_search\` { query, code: true, regex?, oldest? }: git's commits, with the files whose count changed |
| grepping for callers and tests — what else must change with this file? | \`lore_cochange\` { path }: files that historically change in the same commits |
| where does the churn (and the bugs) concentrate? | \`lore_hotspots\` { path?, limit? } |
| \`git shortlog -sn -- DIR\` — who knows this code, who should review? | \`lore_contributors\` { path? } |
| does lore work here, is an answer stale? | \`lore_status\` |

- Paths are relative to the repository root. \`until\` answers as of a commit, branch or tag.
- An answer with \`truncated: true\` was cut to fit; its text says how to ask for the rest.
- Before editing a file you did not write: \`lore_intent\` on the lines you will touch, \`lore_cochange\` on the file.
- Errors come back as \`CODE: message\`; the message says what to change. Only if the lore
  tools are missing, fall back to git (or the CLI: \`lore <question> --json\`).
`;

/** The routing skill: tells the agent which lore tool answers the question it would otherwise put to git or grep. */

export const SKILL_TEXT = `---
name: lore
description: Answers questions about a git repository's history through the lore MCP tools (lore_blame, lore_intent, lore_history, lore_log, lore_show, lore_compare, lore_review, lore_cochange, lore_hotspots, lore_contributors, lore_owners, lore_search, lore_status, lore_changes, lore_restore, lore_branches, lore_suspects, lore_git) — faster and in fewer tokens than git. Use whenever you would run git blame, git log (also -S, -G, --grep, -L), git show, git diff A...B or git shortlog, when you wonder why code is the way it is, and before editing a file, to find what else usually changes with it, before you commit or finish a task (lore_review), and to see or undo what you changed since a snapshot.
---

# lore: ask the index, not git

lore has indexed this repository's history. Its MCP tools answer in milliseconds with
compact JSON, each commit listed once. Reach for them before running git or grepping.

| Instead of | Ask |
| --- | --- |
| \`git blame FILE\` — who last changed these lines? | \`lore_blame\` { path, startLine?, endLine? }: hunks \`[start, end, sha]\` (\`+ origPath, origStart\` for lines moved from another file), each commit once in \`commits\` as \`{sha: [author, time, subject]}\` |
| \`git blame -L\` then \`git show SHA\` — why is this code like this? | \`lore_intent\` { path, startLine, endLine }: each commit's full message, its lines, and the other files it touched |
| \`git log --follow -- FILE\` — what happened to this file? | \`lore_history\` { path, limit? } (follows renames; no \`status\` means M, \`path\` only where the file had another name) |
| \`git log -L A,B:FILE\` / \`-L :func:FILE\` — how did these lines evolve? | \`lore_history\` { path, lines: "A,B" } or { path, lines: ":func" }: each commit's range and diff |
| \`git log --grep=WORD\` — was there a commit about this? | \`lore_search\` { query }: every word, "a phrase", prefix*; ranked, with snippet |
| \`git log -S TEXT\` / \`-G REGEX\` — which commit added or removed this? | \`lore_search\` { query, code: true, regex?, oldest? }: git's commits, with the files whose count changed |
| \`git log --stat -n 20\`, \`git log -- DIR\`, \`git log main..HEAD\` — what happened lately, here? | \`lore_log\` { paths?, limit?, author?, since?, not? }: commits with their files and +/- |
| \`git show SHA [-- FILE]\`, \`git show REV:FILE\` — one commit, or a file as it was | \`lore_show\` { rev, paths?, patch? } (rev "REV:PATH" for the file) |
| \`git diff main...HEAD --stat\` — what does this branch change? | \`lore_compare\` { base, head? }: merge base, ahead/behind, commits, files with +/- |
| grepping for callers and tests — what else must change with these files? | \`lore_cochange\` { paths }: files that historically change in the same commits, \`with\` naming which input |
| before you commit or finish: what am I undoing, what did I miss, whom to ask? | \`lore_review\` { base?, paths?, staged? }: per file the lines your change deletes by commit (\`rewrites\`), \`fixes\` (full messages of fix commits you rewrite: read before undoing), \`missing\` (files that usually change with these, untouched), \`people\`; \`base: "main"\` for a branch's change |
| \`git branch -vv\`, \`git cherry\` — which branches and worktrees are left over, merged (squashed too)? | \`lore_branches\` { stale?, merged?, agent? }: ahead/behind the default branch, \`merged\` (merge, rebase, squash), worktree, gone upstream, agent-made, and the cleanup \`commands\` (run none without asking) |
| which commit broke this (a fix, a stack trace, lines that behave wrongly)? | \`lore_suspects\` { rev? | trace? | path, startLine, endLine }: ranked commits with \`why\` and the lines each wrote; no argument: your uncommitted fix |
| did my edit miss a file that usually changes with it? | \`lore_cochange\` { changed: true }: what usually changes with your uncommitted changes that you have not touched |
| where does the churn (and the bugs) concentrate? | \`lore_hotspots\` { path? }: score = commits × log10(10 + lines), \`hotspot: true\` above the knee; lockfiles and generated files left out |
| \`git shortlog -sn -- DIR\` — who knows this code, who should review? | \`lore_contributors\` { path? } (co-authors from Co-authored-by trailers too) |
| who owns each folder, where is knowledge at risk? | \`lore_owners\` { path?, by? }: main author and share, \`island\` (one person ≥ 80 %), the truck factor |
| does lore work here, is an answer stale? | \`lore_status\` |
| what did I change (since my last edits, 10 minutes, an hour), committed or not? | \`lore_changes\` { since?, paths?, patch?, list? }: files with +/- since a snapshot of the work tree; list: true names the snapshots |
| put a file back as it was before my edits | \`lore_restore\` { paths, from }: \`from\` is a snapshot id from lore_changes; \`backup\` undoes it |
| any other read-only git command (git status, git diff, git grep …) | \`lore_git\` { args: ["status", "--short"] } |

- Paths are relative to the repository root, or absolute: in a linked worktree (\`.claude/worktrees/NAME\`),
  pass absolute paths (as your Read tool shows them) and lore answers in that worktree, at its HEAD.
  \`until\` answers as of a commit, branch or tag.
- Without \`until\`, blame, intent and history -L read the file on disk: line numbers are the ones you
  see after your edits, lines not committed yet are hunks \`[start, end, null]\` (intent: \`uncommitted\`).
- Commit ids in answers are 12 hex; git takes them as they are (\`git show <sha>\`).
- An answer with \`truncated: true\` was cut to fit; its text says how to ask for the rest.
- Before editing a file you did not write: \`lore_intent\` on the lines you will touch, \`lore_cochange\` on the file.
- With \`lore setup --hook\`, lore snapshots the work tree before each of your edits; \`lore_changes\` then
  answers "what did I change" edit by edit, and \`lore_restore\` takes a file back to any snapshot.
- Before you commit or finish a task: \`lore_review\` — the fixes your change would undo (read their messages), the tests, docs and configs that usually change with what you edited, and whom to ask.
- Errors come back as \`CODE: message\`; the message says what to change. Only if the lore
  tools are missing, fall back to git (or the CLI: \`lore <question> --json\`).
`;

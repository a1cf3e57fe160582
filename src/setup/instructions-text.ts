/** The short block lore puts in an agent's global instructions file (AGENTS.md, GEMINI.md): when to ask lore rather than git. */

export const INSTRUCTIONS_TEXT = `## lore: ask the index, not git

The lore MCP server (tools named lore_*) answers questions about a git repository's history
from an index: in milliseconds, in fewer tokens than git's output, each commit once.
Use it instead of running git for these:

- \`git blame\` → \`lore_blame\`; why is this code like this (blame, then show) → \`lore_intent\`
- \`git log --follow FILE\`, \`git log -L\` → \`lore_history\`; \`git log\`, \`git log -- DIR\` → \`lore_log\`
- \`git log --grep\` / \`-S\` / \`-G\` → \`lore_search\`; \`git show\` → \`lore_show\`; \`git diff A...B\` → \`lore_compare\`
- who knows this code → \`lore_contributors\`, \`lore_owners\`; where the churn is → \`lore_hotspots\`
- before editing a file: \`lore_intent\` on the lines, \`lore_cochange\` on the file (what else usually changes with it)
- before you commit or finish a task: \`lore_review\`

Fall back to git only when the lore tools are missing.`;

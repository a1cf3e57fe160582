/** What lore serve tells a client beside the tool list: lore mcp's advice, for served repositories' committed history (no work tree, no roots). */

export function serveInstructions(names: string[]): string {
  const repos = names.length === 1 ? `the repository ${names[0]}` : `the repositories ${names.join(", ")} (name one in each call's repo)`;
  return (
    `lore answers questions about the committed history of ${repos}, from an index on a shared server, in milliseconds, as compact JSON. ` +
    "Prefer it to running git: lore_blame instead of git blame, lore_history instead of git log -- FILE, lore_log instead of git log, lore_show instead of git show, " +
    "lore_compare instead of git diff main...HEAD --stat, lore_intent for why lines exist, lore_cochange before editing a file, lore_review with base: main for a branch's commits, " +
    "lore_hotspots to orient, lore_contributors and lore_owners for who knows the code, lore_git for any other read-only git command. " +
    "Paths are relative to the repository root. Every tool takes until (a revision; default the head of the branch the server follows). " +
    "This server has no work tree: questions about uncommitted edits (lore_changes, lore_restore, lore_review without base) need the local lore mcp. " +
    "A list cut short ends with a continue token: ask again with the same arguments and continue: TOKEN for the items after."
  );
}

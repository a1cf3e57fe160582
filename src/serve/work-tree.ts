/** The questions a server cannot answer: they read a work tree (uncommitted work, memory of edits), and a server's clones are nobody's. */
import { LoreError } from "../errors.ts";

/** Questions that are about the work tree whatever their arguments. */
const ALWAYS = new Set(["changes", "snapshot", "snapshots", "restore"]);

/** What the call asks of a work tree, in a few words, or undefined when it asks only of history. */
function workTreePart(name: string, input: Record<string, unknown>): string | undefined {
  if (ALWAYS.has(name)) return name === "restore" ? "writes files back into your work tree" : "is about the edits in your work tree";
  if (name === "review" && (input.base === undefined || input.staged === true)) return "without base reviews your uncommitted work (with base: main it reviews a branch's commits, which this server answers)";
  if (name === "cochange" && input.changed === true) return "with changed: true starts from your uncommitted edit";
  if (name === "suspects" && input.rev === undefined && input.path === undefined && input.trace === undefined) return "without rev starts from your uncommitted change";
  if (name === "git" && Array.isArray(input.args) && input.args[0] === "status") return "status is about a work tree";
  return undefined;
}

/** NEEDS_WORK_TREE for a call about a work tree, else undefined. */
export function workTreeRefusal(name: string, input: Record<string, unknown>): LoreError | undefined {
  const part = workTreePart(name, input);
  return part
    ? new LoreError("NEEDS_WORK_TREE", `lore_${name} ${part}; this lore server answers about committed history only, so ask the local lore mcp (lore setup registers it) in the checkout.`)
    : undefined;
}

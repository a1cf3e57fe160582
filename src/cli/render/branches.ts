/** Human rendering of branches: one line per branch (merged and stalest first), then the commands that clean up. */
import type { BranchesOutput } from "../../queries/branches.ts";
import type { Style } from "../style.ts";
import { day, table } from "../table.ts";
import { plural } from "../../plural.ts";
import { moreLine, type Words } from "./words.ts";

export function renderBranches(r: BranchesOutput & { continue?: string; after?: number }, s: Style, w: Words): string {
  const out: string[] = [];
  if (r.after === undefined) out.push(s.dim(`${plural(r.branches.length, "branch", "branches")} against ${r.default} (${r.rev.slice(0, 12)})`));
  if (r.note) out.push(r.note);
  if (r.branches.length) {
    const rows = [
      ["merged", "branch", "last", "author", "ahead", "behind", "where"].map(s.dim),
      ...r.branches.map((b) => [
        b.merged ? s.green(b.merged + (b.by ? ` ${b.by}` : "")) : "",
        b.name + (b.agent ? s.cyan(` (${b.agent})`) : ""),
        day(b.time),
        b.author,
        String(b.ahead),
        String(b.behind),
        [b.upstream ? (b.gone ? s.yellow(`${b.upstream} gone`) : b.upstream) : "", b.worktree ? `worktree ${b.worktree}` : ""].filter(Boolean).join(", "),
      ]),
    ];
    out.push(...table(rows, new Set([4, 5])));
  }
  if (r.commands.length) out.push("", s.dim("To clean up the merged ones (lore runs none of these):"), ...r.commands.map((c) => `  ${c}`));
  out.push(...moreLine(w, "more branches", r).map(s.dim));
  return out.join("\n");
}

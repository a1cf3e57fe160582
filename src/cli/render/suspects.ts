/** Human rendering of suspects: the likeliest commits first, each with why and the lines it wrote. */
import type { SuspectsOutput } from "../../queries/suspects.ts";
import type { Style } from "../style.ts";
import { day } from "../table.ts";
import { moreLine, type Words } from "./words.ts";

type Bisected = { sha: string; parent: string; suspect: string; confirmed: boolean }[];

export function renderSuspects(r: SuspectsOutput & { continue?: string; after?: number; bisect?: Bisected }, s: Style, w: Words): string {
  const out: string[] = [];
  if (r.after === undefined) out.push(s.dim(r.fix ? `suspects for fix ${r.fix.slice(0, 12)}, read at its parent ${r.rev.slice(0, 12)}` : `suspects, read at ${r.rev.slice(0, 12)}`));
  if (r.note) out.push(r.note);
  r.suspects.forEach((x, i) => {
    out.push(`${s.bold(String((r.after ?? 0) + i + 1))}. ${s.yellow(x.sha)} ${day(x.time)} ${x.author}  ${x.subject}`);
    out.push(`   ${x.why}`);
    const where = Object.entries(x.lines).map(([p, rs]) => `${p}:${rs.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(",")}`);
    if (where.length) out.push(s.dim(`   ${where.join("  ")}`));
  });
  if (r.suspects.length === 0 && !r.note) out.push("No suspect: no asked line has a commit to blame.");
  out.push(...moreLine(w, "more suspects", r).map(s.dim));
  if (r.bisect) {
    const hit = r.bisect.find((b) => b.confirmed);
    out.push("", hit ? s.green(`--bisect: ${hit.sha} broke it (its parent passes, it fails)`) : s.yellow("--bisect confirmed none of the top suspects"));
    for (const b of r.bisect) if (b !== hit) out.push(s.dim(`  ${b.sha}: parent ${b.parent}, it ${b.suspect}`));
  }
  return out.join("\n");
}

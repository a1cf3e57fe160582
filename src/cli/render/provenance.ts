/** A commit's provenance in a person's words, after its subject: `(#123, v4.1.0, claude)`, and whether ignore-revs names it. */
import type { Provenance } from "../../queries/provenance.ts";

export function provenanceText(p: (Provenance & { ignored?: true }) | undefined, subject = ""): string {
  if (!p) return "";
  // A squash subject says its number already.
  const saysPr = p.pr !== undefined && subject.includes(`#${p.pr}`);
  const parts = [p.pr !== undefined && !saysPr ? `#${p.pr}` : "", p.release ?? "", p.agent ? `agent ${p.agent}` : "", p.ignored ? "ignore-revs" : ""].filter(Boolean);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

/** "written with agents: claude 120 lines (12%)": lines of agent-credited commits, beside the people who keep them; none: no line. */
export function agentSharesText(agents: Record<string, { lines: number; share: number }> | undefined): string[] {
  if (!agents) return [];
  return [`written with agents: ${Object.entries(agents).map(([a, v]) => `${a} ${v.lines} line${v.lines === 1 ? "" : "s"} (${Math.round(v.share * 100)}%)`).join(", ")}`];
}

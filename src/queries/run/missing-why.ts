/** One line per row of review's missing: the evidence that put it there, in words. */
import type { Evidence, Ranked } from "./missing-rank.ts";

const RELATION = { test: "the test of", tested: "the file tested by", types: "the types beside", named: "named like" } as const;

/** `name` gives a changed file's new name (review names the change as it is now). */
export function whyOf(r: Ranked, e: Evidence, name: (old: string) => string): string {
  const parts: string[] = [];
  if (r.name && r.name.relation !== "named") parts.push(`${RELATION[r.name.relation]} ${name(r.name.of)}`);
  const n = r.with.length;
  if (n > 1) parts.push(`changed with ${n === e.inputs.length ? `all ${n}` : `${n} of`} your ${n === e.inputs.length ? "" : `${e.inputs.length} `}files in ${r.count} of their last ${r.commits} commits`);
  else if (r.with.length === 1) {
    const k = r.with[0]!;
    const of = r.name?.of === e.inputs[k] && r.name.relation !== "named" ? "it" : name(e.inputs[k]!);
    parts.push(`changed with ${of} in ${r.count} of its last ${e.touches[k]!.length} commits`);
  }
  if (parts.length < 2 && r.place) parts.push(`${r.place.changed} of the ${r.place.files} files of ${r.place.place} are in your change`);
  if (parts.length < 2 && r.name?.relation === "named") parts.push(`named like ${name(r.name.of)}`);
  if (parts.length === 0 && r.habit) parts.push(`changed in ${r.habit} of the repository's last ${e.recent.length} commits`);
  return parts.join("; ");
}

/** One line per row of review's missing: the evidence that put it there, strongest first, in words. */
import type { Evidence, Kind, Ranked } from "./missing-rank.ts";
import { plural } from "../../plural.ts";

const RELATION = { test: "the test of", tested: "the file tested by", types: "the types beside", named: "named like" } as const;

/** `name` gives a changed file's new name (review names the change as it is now); at most two reasons, the second only when it weighs half the first or more. */
export function whyOf(r: Ranked, e: Evidence, name: (old: string) => string): string {
  const say: Record<Kind, () => string> = {
    cochange: () => {
      const n = r.with.length;
      const yours = n === 2 && e.inputs.length === 2 ? "both your files" : n === e.inputs.length ? `all ${n} of your files` : `${n} of your ${e.inputs.length} files`;
      if (n > 1) return `changed with ${yours} in ${r.count} of their last ${plural(r.commits, "commit")}`;
      const k = r.with[0]!;
      return `changed with ${name(e.inputs[k]!)} in ${r.count} of its last ${plural(e.touches[k]!.length, "commit")}`;
    },
    name: () => `${RELATION[r.name!.relation]} ${name(r.name!.of)}`,
    place: () => `${r.place!.changed} of the ${plural(r.place!.files, "file")} of ${r.place!.place} ${r.place!.changed === 1 ? "is" : "are"} in your change`,
    habit: () => `changed in ${r.habit} of the repository's last ${plural(e.recent.length, "commit")}`,
    words: () => `your diff mentions ${r.word}`,
    analogy: () => `your change pairs ${r.analogy!.rule} for ${r.analogy!.paired} of ${plural(r.analogy!.applies, "file")}, not for ${name(r.analogy!.of)}`,
    // A new name already: the import is read from the change as it is now.
    imports: () => `${r.importedBy} now imports it`,
    remains: () => {
      const { line, removed, from } = r.remain!;
      const quoted = line.length > 40 ? `${line.slice(0, 39)}…` : line;
      return `still has "${quoted}", which your change removes from ${removed === 1 ? from : `${removed} files`}`;
    },
    similar: () => `changed in ${r.similar!.count} of the ${r.similar!.k === 1 ? "past commit" : `${r.similar!.k} past commits`} most like yours`,
    partner: () => `changed with ${name(e.inputs[r.partner!.of]!)} in ${r.partner!.count} of its last ${plural(r.partner!.total, "commit")}`,
  };
  const parts = (Object.entries(r.parts) as [Kind, number][]).sort((a, b) => b[1] - a[1]);
  const kinds = parts.filter(([, worth], i) => i === 0 || (i === 1 && worth >= parts[0]![1] / 2)).map(([kind]) => kind);
  // A partner is co-change seen from one file, and the commits most like yours are co-change too: one
  // line says it (of all the files it went with, where it went with several).
  let one = kinds.includes("cochange") && kinds.includes("partner") ? kinds.filter((k) => k !== (r.with.length > 1 ? "partner" : "cochange")) : kinds;
  if (one.includes("similar") && (one.includes("cochange") || one.includes("partner"))) one = one.filter((k) => k !== "similar");
  return one.map((kind) => say[kind]()).join("; ");
}

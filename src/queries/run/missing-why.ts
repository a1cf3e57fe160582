/** One line per row of review's missing: the evidence that put it there, strongest first, in words, and how strongly it holds. */
import { round } from "./common.ts";
import type { Evidence, Kind, Ranked } from "./missing-rank.ts";

const RELATION = { test: "the test of", tested: "the file tested by", types: "the types beside", named: "named like" } as const;

/** `name` gives a changed file's new name (review names the change as it is now); at most two reasons, the second only when it weighs half the first or more. */
export function whyOf(r: Ranked, e: Evidence, name: (old: string) => string): string {
  const say: Record<Kind, () => string> = {
    cochange: () => {
      const n = r.with.length;
      const yours = n === 2 && e.inputs.length === 2 ? "both your files" : n === e.inputs.length ? `all ${n} of your files` : `${n} of your ${e.inputs.length} files`;
      if (n > 1) return `changed with ${yours} in ${r.count} of their last ${r.commits} commits`;
      const k = r.with[0]!;
      return `changed with ${name(e.inputs[k]!)} in ${r.count} of its last ${e.touches[k]!.length} commits`;
    },
    name: () => `${RELATION[r.name!.relation]} ${name(r.name!.of)}`,
    place: () => `${r.place!.changed} of the ${r.place!.files} files of ${r.place!.place} are in your change`,
    habit: () => `changed in ${r.habit} of the repository's last ${e.recent.length} commits`,
    words: () => `your diff mentions ${r.word}`,
    analogy: () => `your change pairs ${r.analogy!.rule} for ${r.analogy!.paired} of ${r.analogy!.applies} files, not for ${name(r.analogy!.of)}`,
    // A new name already: the import is read from the change as it is now.
    imports: () => `${r.importedBy} now imports it`,
    remains: () => {
      const { line, removed, from } = r.remain!;
      const quoted = line.length > 40 ? `${line.slice(0, 39)}…` : line;
      return `still has "${quoted}", which your change removes from ${removed === 1 ? from : `${removed} files`}`;
    },
    similar: () => `changed in ${r.similar!.count} of the ${r.similar!.k} past commits most like yours`,
    partner: () => `changed with ${name(e.inputs[r.partner!.of]!)} in ${r.partner!.count} of its last ${r.partner!.total} commits`,
  };
  return saidKinds(r).map((kind) => say[kind]()).join("; ");
}

/** The kinds of evidence why says: at most two, the second only when it weighs half the first or more. */
function saidKinds(r: Ranked): Kind[] {
  const parts = (Object.entries(r.parts) as [Kind, number][]).sort((a, b) => b[1] - a[1]);
  const kinds = parts.filter(([, worth], i) => i === 0 || (i === 1 && worth >= parts[0]![1] / 2)).map(([kind]) => kind);
  // A partner is co-change seen from one file, and the commits most like yours are co-change too: one
  // line says it (of all the files it went with, where it went with several).
  let one = kinds.includes("cochange") && kinds.includes("partner") ? kinds.filter((k) => k !== (r.with.length > 1 ? "partner" : "cochange")) : kinds;
  if (one.includes("similar") && (one.includes("cochange") || one.includes("partner"))) one = one.filter((k) => k !== "similar");
  return one;
}

/** The share each kind of evidence says in its why (3 of 4 commits, 4 of the 5 files of a place); a name, an import or a word says none. */
const SHARE: Partial<Record<Kind, (r: Ranked, e: Evidence) => number>> = {
  partner: (r) => r.partner!.count / r.partner!.total,
  similar: (r) => r.similar!.count / r.similar!.k,
  habit: (r, e) => r.habit! / e.recent.length,
  place: (r) => r.place!.changed / r.place!.files,
  analogy: (r) => r.analogy!.paired / r.analogy!.applies,
  remains: (r) => r.remain!.removed / (r.remain!.removed + r.remain!.left),
};

/**
 * How strongly the row's evidence holds, 0 to 1: the share its commits with the changed files say
 * (count of commits), or the larger share its why says. 0 when nothing but a name, an import or a
 * word put it there: a guess, which review does not show.
 */
export function confidenceOf(r: Ranked, e: Evidence): number {
  const shares = saidKinds(r).map((kind) => SHARE[kind]?.(r, e) ?? 0);
  return round(Math.max(r.count / Math.max(1, r.commits), ...shares), 2);
}

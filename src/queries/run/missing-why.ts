/** One line per row of review's missing: the evidence that put it there, strongest first, in words, and how strongly it holds. */
import { round } from "./common.ts";
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
  return saidKinds(r, e).map((kind) => say[kind]()).join("; ");
}

/** The share each kind of evidence says in its why (3 of 4 commits, 4 of the 5 files of a place); a name, an import or a word says none. */
const SHARE: Partial<Record<Kind, (r: Ranked, e: Evidence) => number>> = {
  cochange: (r) => r.count / Math.max(1, r.commits),
  partner: (r) => r.partner!.count / r.partner!.total,
  similar: (r) => r.similar!.count / r.similar!.k,
  habit: (r, e) => r.habit! / e.recent.length,
  place: (r) => r.place!.changed / r.place!.files,
  analogy: (r) => r.analogy!.paired / r.analogy!.applies,
  remains: (r) => r.remain!.removed / (r.remain!.removed + r.remain!.left),
};
const shareOf = (kind: Kind, r: Ranked, e: Evidence) => SHARE[kind]?.(r, e) ?? 0;

/** Co-change, a partner and the commits most like yours are one kind of reason, said once. */
const COCHANGE_KINDS = new Set<Kind>(["cochange", "partner", "similar"]);

/**
 * The kinds of evidence why says: the strongest, the second when it weighs half the first or more,
 * and the one with the largest share when neither says as large a share (9 of the 12 files of a
 * place beside 1 of 274 commits): the confidence is a share why says.
 */
function saidKinds(r: Ranked, e: Evidence): Kind[] {
  const parts = (Object.entries(r.parts) as [Kind, number][]).sort((a, b) => b[1] - a[1]);
  const kinds = parts.filter(([, worth], i) => i === 0 || (i === 1 && worth >= parts[0]![1] / 2)).map(([kind]) => kind);
  // A partner is co-change seen from one file, and the commits most like yours are co-change too: one
  // line says it (of all the files it went with, where it went with several).
  let one = kinds.includes("cochange") && kinds.includes("partner") ? kinds.filter((k) => k !== (r.with.length > 1 ? "partner" : "cochange")) : kinds;
  if (one.includes("similar") && (one.includes("cochange") || one.includes("partner"))) one = one.filter((k) => k !== "similar");
  const said = Math.max(0, ...one.map((k) => shareOf(k, r, e)));
  const cochangeSaid = one.some((k) => COCHANGE_KINDS.has(k));
  const best = parts
    .map(([k]) => k)
    .filter((k) => !one.includes(k) && !(cochangeSaid && COCHANGE_KINDS.has(k)))
    .reduce<Kind | undefined>((b, k) => (shareOf(k, r, e) > (b ? shareOf(b, r, e) : said) ? k : b), undefined);
  return best ? [...one, best] : one;
}

/**
 * How strongly the row's evidence holds, 0 to 1: the largest share its why says (its commits with
 * the changed files, a place's files, a rule's pairs, a removed line's files). 0 when nothing but a
 * name, an import or a word put it there: a guess, which review does not show.
 */
export function confidenceOf(r: Ranked, e: Evidence): number {
  const share = Math.max(0, ...saidKinds(r, e).map((kind) => shareOf(kind, r, e)));
  // 2 of 409 commits is little, not nothing: at least 0.01.
  return share > 0 ? Math.max(0.01, round(share, 2)) : 0;
}

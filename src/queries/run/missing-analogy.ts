/**
 * What the change's own pairs show: when it changes src/a.ts with deno_dist/a.ts and src/b.ts with
 * deno_dist/b.ts (a parallel root), or a.ts with a.test.ts (a name pattern), a changed src/c.ts
 * whose deno_dist/c.ts or c.test.ts it left alone has likely missed it.
 */
import { nameOf } from "./missing-names.ts";

export interface Analogy {
  /** The rule as a person reads it: src/∗ → deno_dist/∗, ∗.ts → ∗.test.ts. */
  rule: string;
  /** Changed files the rule applies to whose counterpart is in the change, of those it applies to. */
  paired: number;
  applies: number;
  /** The changed file it is the counterpart of. */
  of: string;
}

/** Changed files read at most: rules come from pairs, and a sweeping change shows them in its first few hundred. */
const MAX_FILES = 300;
/** Files of one name (or one folder's stem) paired at most. */
const MAX_GROUP = 30;

interface Rule {
  key: string;
  apply: (path: string) => string | undefined;
}

const split = (path: string) => {
  const slash = path.lastIndexOf("/");
  return { dir: slash < 0 ? "" : path.slice(0, slash + 1), base: path.slice(slash + 1) };
};

/** The same name under another root: the longest common tail of folders, the heads swapped. */
function rootRule(x: string, y: string): Rule | undefined {
  const a = x.split("/");
  const b = y.split("/");
  let k = 0;
  while (k < a.length && k < b.length && a[a.length - 1 - k] === b[b.length - 1 - k]) k++;
  if (k === 0 || k === a.length && k === b.length) return undefined;
  const from = a.slice(0, a.length - k).map((s) => s + "/").join("");
  const to = b.slice(0, b.length - k).map((s) => s + "/").join("");
  return { key: `${from}∗ → ${to}∗`, apply: (p) => (p.startsWith(from) ? to + p.slice(from.length) : undefined) };
}

/** The same stem in the same folder under another pattern: ∗.ts → ∗.test.ts. */
function nameRule(x: string, y: string): Rule | undefined {
  const stem = nameOf(x).stem;
  const [bx, by] = [split(x).base, split(y).base];
  const i = bx.toLowerCase().indexOf(stem);
  const j = by.toLowerCase().indexOf(stem);
  if (!stem || i < 0 || j < 0) return undefined;
  const [pre, post] = [bx.slice(0, i), bx.slice(i + stem.length)];
  const [pre2, post2] = [by.slice(0, j), by.slice(j + stem.length)];
  return {
    key: `${pre}∗${post} → ${pre2}∗${post2}`,
    apply: (p) => {
      const { dir, base } = split(p);
      if (base.length <= pre.length + post.length || !base.startsWith(pre) || !base.endsWith(post)) return undefined;
      return dir + pre2 + base.slice(pre.length, base.length - post.length) + post2;
    },
  };
}

function groups(files: string[], keyOf: (f: string) => string): string[][] {
  const m = new Map<string, string[]>();
  for (const f of files) {
    const k = keyOf(f);
    const g = m.get(k);
    if (!g) m.set(k, [f]);
    else if (g.length < MAX_GROUP) g.push(f);
  }
  return [...m.values()].filter((g) => g.length > 1);
}

/** The files of `tree` outside the change that a rule of `minPairs` or more of the change's pairs makes its counterpart: the rule with the largest share. */
export function analogies(change: ReadonlySet<string>, tree: ReadonlySet<string>, minPairs: number): Map<string, Analogy> {
  const files = [...change].slice(0, MAX_FILES);
  const rules = new Map<string, { rule: Rule; pairs: number }>();
  const learn = (rule: Rule | undefined) => {
    if (!rule) return;
    const r = rules.get(rule.key);
    if (r) r.pairs++;
    else rules.set(rule.key, { rule, pairs: 1 });
  };
  for (const g of groups(files, (f) => split(f).base)) for (const x of g) for (const y of g) if (x !== y) learn(rootRule(x, y));
  for (const g of groups(files, (f) => split(f).dir + "\0" + nameOf(f).stem)) for (const x of g) for (const y of g) if (x !== y && split(x).base !== split(y).base) learn(nameRule(x, y));
  const out = new Map<string, Analogy>();
  for (const { rule, pairs } of rules.values()) {
    if (pairs < minPairs) continue;
    const found: [string, string][] = [];
    let paired = 0;
    for (const f of files) {
      const t = rule.apply(f);
      if (t === undefined || t === f) continue;
      if (change.has(t)) paired++;
      else if (tree.has(t)) found.push([t, f]);
    }
    const applies = paired + found.length;
    for (const [t, of] of found) {
      const best = out.get(t);
      if (!best || paired / applies > best.paired / best.applies) out.set(t, { rule: rule.key, paired, applies, of });
    }
  }
  return out;
}

/** Names and places: the test beside a source file (foo.test.ts, __tests__/foo.ts, test/foo.js), the source a test tests, the .d.ts beside it, a file named like it elsewhere. */

export type Relation = "test" | "tested" | "types" | "named";

interface Name {
  path: string;
  dir: string;
  stem: string;
  test: boolean;
  types: boolean;
}

const TEST_DIR = /(^|\/)(__tests__|tests?|spec|__test__)(\/|$)/;
/** Stems too common to say anything across folders. */
const COMMON = new Set(["index", "main", "mod", "readme", "utils", "util", "types", "helpers", "package", "changelog", "license", "history"]);
/** Another kind of file with the stem, at most, for a test in another folder to count as its test. */
const MAX_ELSEWHERE = 3;

export function nameOf(path: string): Name {
  const slash = path.lastIndexOf("/");
  const dir = slash < 0 ? "" : path.slice(0, slash);
  let base = path.slice(slash + 1);
  const dot = base.lastIndexOf(".");
  if (dot > 0) base = base.slice(0, dot);
  let test = TEST_DIR.test(dir);
  let types = false;
  const m = /^(.+?)(\.test|\.spec|_test|-test|_spec|\.d)$/.exec(base) ?? /^(test_)(.+)$/.exec(base);
  if (m) {
    const marker = m[1] === "test_" ? "test_" : m[2]!;
    base = m[1] === "test_" ? m[2]! : m[1]!;
    if (marker === ".d") types = true;
    else test = true;
  }
  return { path, dir, stem: base.toLowerCase(), test, types };
}

const byStem = new WeakMap<ReadonlySet<string>, Map<string, Name[]>>();

function stems(tree: ReadonlySet<string>): Map<string, Name[]> {
  let m = byStem.get(tree);
  if (m) return m;
  m = new Map();
  for (const path of tree) {
    const n = nameOf(path);
    const list = m.get(n.stem);
    if (list) list.push(n);
    else m.set(n.stem, [n]);
  }
  byStem.set(tree, m);
  return m;
}

const near = (testDir: string, srcDir: string) => testDir === srcDir || /^\/(__tests__|tests?|spec)$/.test(testDir.slice(srcDir.length)) && testDir.startsWith(srcDir);

/** The files of `tree` related to `path` by name and place. */
export function related(path: string, tree: ReadonlySet<string>): [string, Relation][] {
  const me = nameOf(path);
  const same = stems(tree).get(me.stem);
  if (!same) return [];
  const out: [string, Relation][] = [];
  const others = same.filter((n) => n.test !== me.test).length;
  for (const n of same) {
    if (n.path === path) continue;
    if (n.test !== me.test) {
      const [t, s] = me.test ? [me, n] : [n, me];
      const close = near(t.dir, s.dir) || (!COMMON.has(me.stem) && others <= MAX_ELSEWHERE);
      if (close) out.push([n.path, me.test ? "tested" : "test"]);
    } else if (n.dir === me.dir && n.types !== me.types) out.push([n.path, "types"]);
    else if (!COMMON.has(me.stem) && same.length <= MAX_ELSEWHERE + 1 && n.dir !== me.dir) out.push([n.path, "named"]);
  }
  return out;
}

/** The places a file shares with others: its folder and kind, its folder and name prefix (test/res.*.js), its name in a parallel folder (src/middleware/∗/index.ts). */
function placesOf(path: string): string[] {
  const slash = path.lastIndexOf("/");
  const dir = path.slice(0, Math.max(0, slash));
  const base = path.slice(slash + 1);
  const dot = base.lastIndexOf(".");
  const ext = dot > 0 ? base.slice(dot) : "";
  const prefix = /^[^.\-_]+/.exec(base)?.[0] ?? base;
  const at = slash > 0 ? `${dir}/` : "";
  const out = [`${at}*${ext}`, `${at}${prefix}*${ext}`];
  if (slash > 0) {
    const up = dir.lastIndexOf("/");
    out.push(`${up > 0 ? dir.slice(0, up + 1) : ""}*/${base}`);
  }
  return out;
}

const byPlace = new WeakMap<ReadonlySet<string>, Map<string, string[]>>();

function places(tree: ReadonlySet<string>): Map<string, string[]> {
  let m = byPlace.get(tree);
  if (m) return m;
  m = new Map();
  for (const path of tree)
    for (const p of placesOf(path)) {
      const list = m.get(p);
      if (list) list.push(path);
      else m.set(p, [path]);
    }
  byPlace.set(tree, m);
  return m;
}

/** The files of `tree` that share a place with two or more changed files: the place of which the change touched the largest share. */
export interface Place {
  /** The pattern: dir/∗.ext, dir/prefix∗.ext or parent/∗/name. */
  place: string;
  changed: number;
  files: number;
}

export function sharedPlaces(change: Iterable<string>, tree: ReadonlySet<string>): Map<string, Place> {
  const counts = new Map<string, number>();
  for (const f of change) for (const p of placesOf(f)) counts.set(p, (counts.get(p) ?? 0) + 1);
  const index = places(tree);
  const out = new Map<string, Place>();
  const share = (p: Place | undefined) => (p ? p.changed / p.files : 0);
  for (const [place, changed] of counts) {
    const files = index.get(place);
    if (changed < 2 || !files) continue;
    const p = { place, changed, files: Math.max(changed, files.length) };
    for (const f of files) if (share(out.get(f)) < share(p)) out.set(f, p);
  }
  return out;
}

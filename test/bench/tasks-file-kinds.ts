/** The task benchmark's kinds of task about one file: its lines, its history, its past, what changes with it. */
import { gitCochange } from "../helpers/git-truth.ts";
import { pickaxeTruth } from "../helpers/search-truth.ts";
import { pick, sh, type RepoFacts } from "./tasks-repo.ts";
import { q, sameCommits, sameSha, tries, type Kind, type Task } from "./tasks-kind.ts";

const abbrev = /^\^?([0-9a-f]{7,40})\b/gm;

/** A text file with some history and at least `lines` lines. */
function file(f: RepoFacts, lines: number, commits = 3) {
  return pick(f, f.files.filter((x) => x.lines >= lines && x.commits >= commits && x.lines < 5000));
}

/** A file and a range of `n` lines in it. */
function range(f: RepoFacts, n: number): Task | undefined {
  const x = file(f, n + 10);
  if (!x) return undefined;
  const start = 1 + Math.floor(f.rand() * (x.lines - n));
  return { kind: "", what: `${x.path}:${start},${start + n - 1}`, path: x.path, start, end: start + n - 1 };
}

/** Per line, the full id of the commit git blame gives it. */
function blameShas(f: RepoFacts, t: Task): string[] {
  return [...sh(f.dir, `git blame --porcelain -L ${t.start},${t.end} -- ${q(t.path as string)}`).matchAll(/^([0-9a-f]{40}) \d+ (\d+) (\d+)$/gm)].flatMap((m) => Array(Number(m[3])).fill(m[1]!));
}

/** Per line, the commit of lore's blame hunks (keys of its commits table); a range one commit wrote whole is its one row, without hunks. */
function loreLines(b: any, t: Task): string[] {
  const out: string[] = [];
  const one = Object.keys(b?.commits ?? {});
  const hunks = b?.hunks ?? (one.length === 1 ? [[t.start, t.end, one[0]]] : []);
  for (const h of hunks) for (let i = h[0]; i <= h[1]; i++) out.push(h[2]);
  return out;
}

const blame: Kind = {
  name: "who wrote these lines",
  draw: (f) => range(f, 21),
  git: (t, run) => run(`git blame -L ${t.start},${t.end} -- ${q(t.path as string)}`),
  lore: async (t, call) => void (await call("blame", { path: t.path, startLine: t.start, endLine: t.end })),
  check(t, f, [b]) {
    const truth = blameShas(f, t);
    const mine = loreLines(b, t);
    const bad = truth.findIndex((s, i) => !sameSha(mine[i], s));
    return mine.length !== truth.length ? [`${mine.length} lines, git ${truth.length}`] : bad >= 0 ? [`line ${bad + (t.start as number)}: ${mine[bad]} vs ${truth[bad]}`] : [];
  },
};

const why: Kind = {
  name: "who wrote these lines and why",
  draw: (f) => range(f, 21),
  git(t, run) {
    const out = run(`git blame -L ${t.start},${t.end} -- ${q(t.path as string)}`);
    for (const sha of new Set([...out.matchAll(abbrev)].map((m) => m[1]!))) run(`git show --stat ${sha}`);
  },
  lore: async (t, call) => void (await call("intent", { path: t.path, startLine: t.start, endLine: t.end })),
  check(t, f, [a]) {
    const truth = [...new Set(blameShas(f, t))];
    const commits: any[] = a?.commits ?? [];
    const problems: string[] = [];
    for (const sha of truth) {
      const c = commits.find((c) => sameSha(c.sha, sha));
      if (!c) problems.push(`no commit ${sha.slice(0, 12)}`);
      else if (c.message.trim() !== sh(f.dir, `git log -1 --format=%B ${sha}`).trim()) problems.push(`message of ${sha.slice(0, 12)} differs`);
    }
    return problems;
  },
};

const history: Kind = {
  name: "what happened to this file",
  draw: (f) => tries(20, () => {
    const x = file(f, 1, 5);
    return x && { kind: "", what: x.path, path: x.path };
  }),
  git: (t, run) => run(`git log --follow -n 20 -- ${q(t.path as string)}`),
  lore: async (t, call) => void (await call("history", { path: t.path })),
  check: (t, f, [h]) => sameCommits("history", (h?.commits ?? []).map((c: any) => c.sha), sh(f.dir, `git log --follow -n 20 --format=%H -- ${q(t.path as string)}`).split("\n").filter(Boolean)),
};

/** Names a JavaScript or TypeScript file defines as functions or methods. */
function functionNames(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/^\s*(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]{3,})\s*\(|^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]{3,})\s*=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>)|^\s*(?:[\w$.]+\.)?([A-Za-z_$][\w$]{3,})\s*=\s*function\b/gm))
    names.add((m[1] ?? m[2] ?? m[3])!);
  return [...names];
}

const introduced = (code: string, paths: string[]): Pick<Kind, "git" | "lore" | "check"> => ({
  git(t, run) {
    const text = t[code] as string;
    const out = run(`git log -S ${q(text)} --oneline${paths.length ? ` -- ${paths.map((p) => q(t[p] as string)).join(" ")}` : ""}`).trim().split("\n");
    const oldest = /^([0-9a-f]+)/.exec(out[out.length - 1] ?? "")?.[1];
    // The lines that introduced it: the commit's diff of the file, when the task names one; its files otherwise.
    if (oldest) run(paths.length ? `git show ${oldest} -- ${paths.map((p) => q(t[p] as string)).join(" ")}` : `git show --stat ${oldest}`);
  },
  lore: async (t, call) => void (await call("search", { query: t[code], code: true, oldest: true, limit: 1, ...(paths.length ? { paths: paths.map((p) => t[p]) } : {}) })),
  check(t, f, [s]) {
    const truth = pickaxeTruth(f.dir, t[code] as string, { reverse: true, paths: paths.map((p) => t[p] as string) })[0];
    const first = s?.results?.[0];
    if (!truth) return ["git finds no commit"];
    if (!sameSha(first?.sha, truth.sha)) return [`oldest ${first?.sha} vs ${truth.sha.slice(0, 12)}`];
    // The lines git show OLDEST -- FILE adds that hold the text are in lore's diff of that file.
    if (!paths.length) return [];
    const path = t[paths[0]!] as string;
    const text = t[code] as string;
    const added = (patch: string) => patch.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++") && l.includes(text));
    const want = added(sh(f.dir, `git show --format= ${truth.sha} -- ${q(path)}`));
    const mine = added(s?.diff?.[path] ?? "");
    return want.every((l) => mine.includes(l)) ? [] : [`the diff has ${mine.length} of git's ${want.length} lines adding it`];
  },
});

const functionIntro: Kind = {
  name: "when and why was this function introduced",
  draw: (f) => tries(30, () => {
    const x = pick(f, f.files.filter((x) => /\.(m?[jt]sx?)$/.test(x.path) && x.commits >= 2));
    if (!x) return undefined;
    const name = pick(f, functionNames(sh(f.dir, `git show HEAD:${q(x.path)}`)));
    return name ? { kind: "", what: `${name} in ${x.path}`, path: x.path, name } : undefined;
  }),
  ...introduced("name", ["path"]),
};

const stringIntro: Kind = {
  name: "which commit introduced this string",
  draw: (f) => tries(30, () => {
    const x = file(f, 10, 2);
    if (!x) return undefined;
    const strings = [...sh(f.dir, `git show HEAD:${q(x.path)}`).matchAll(/(['"])([A-Za-z][^'"\\$`\n]{9,39})\1/g)].map((m) => m[2]!);
    const text = pick(f, strings);
    return text ? { kind: "", what: `"${text}"`, text } : undefined;
  }),
  ...introduced("text", []),
};

const cochange: Kind = {
  name: "what changes with this file",
  draw: (f) => {
    const x = file(f, 1, 8);
    return x && { kind: "", what: x.path, path: x.path };
  },
  git: (t, run) => run(`git log -n 200 --format= --name-only --full-diff -- ${q(t.path as string)} | sort | uniq -c | sort -rn | head -n 11`),
  lore: async (t, call) => void (await call("cochange", { paths: [t.path] })),
  check(t, f, [c]) {
    const { counts } = gitCochange(f.dir, "HEAD", t.path as string, 200, 50);
    // The model's rows: { path: [score, count] } (or objects, as --json has them).
    const rows: any[] = c?.results && !Array.isArray(c.results) ? Object.entries(c.results).map(([path, [, count]]: [string, any]) => ({ path, count })) : (c?.results ?? []);
    return rows.filter((r: any) => counts.get(r.path) !== r.count).map((r: any) => `${r.path}: ${r.count} vs git ${counts.get(r.path)}`);
  },
};

const fileThen: Kind = {
  name: "the file as it was N commits ago",
  draw: (f) => tries(30, () => {
    const x = file(f, 5, 3);
    // 20 to 99 commits back, within the history there is.
    const n = Math.min(20 + Math.floor(f.rand() * 80), f.commits.length - 1);
    if (!x || n < 1) return undefined;
    try {
      sh(f.dir, `git cat-file -e HEAD~${n}:${q(x.path)}`);
    } catch {
      return undefined;
    }
    return { kind: "", what: `HEAD~${n}:${x.path}`, rev: `HEAD~${n}:${x.path}` };
  }),
  git: (t, run) => run(`git show ${q(t.rev as string)}`),
  async lore(t, call) {
    // A long file comes a page a call: the text answer's last line says from where the rest goes on.
    let a = await call("show", { rev: t.rev });
    for (let cut = /\n… \d+ more lines? from startLine (\d+)$/.exec(a?.text ?? ""); cut; cut = /\n… \d+ more lines? from startLine (\d+)$/.exec(a?.text ?? ""))
      a = await call("show", { rev: t.rev, startLine: Number(cut[1]) });
  },
  check(t, f, answers) {
    // What the model read, without the line that says how to get the rest.
    const text = answers.map((a) => (a?.text ?? "").replace(/\n?… \d+ more lines? from startLine \d+$/, "").replace(/\n$/, "")).join("\n");
    return text === sh(f.dir, `git show ${q(t.rev as string)}`).replace(/\n$/, "") ? [] : ["text differs"];
  },
};

const lineHistory: Kind = {
  name: "the history of these lines",
  draw: (f) => range(f, 10),
  git: (t, run) => run(`git log -L ${t.start},${t.end}:${q(t.path as string)}`),
  lore: async (t, call) => void (await call("history", { path: t.path, lines: `${t.start},${t.end}` })),
  check: (t, f, [h]) =>
    sameCommits("history -L", (h?.commits ?? []).map((c: any) => c.sha), sh(f.dir, `git log -n ${h?.truncated || h?.continue ? h.commits.length : 10000} -L ${t.start},${t.end}:${q(t.path as string)} --format=%H --no-patch`).split("\n").filter(Boolean)),
};

export const FILE_KINDS: Kind[] = [blame, why, history, functionIntro, stringIntro, cochange, fileThen, lineHistory];

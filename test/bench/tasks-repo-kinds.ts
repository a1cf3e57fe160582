/** The task benchmark's kinds of task about folders and the repository: churn, people, recent work, a commit, a branch, a word. */
import { gitPeople } from "../helpers/identity-truth.ts";
import { grepWholeWords } from "../helpers/search-truth.ts";
import { isBot } from "../../src/queries/run/contributor-commits.ts";
import { gitLines, pick, sh, type RepoFacts } from "./tasks-repo.ts";
import { allPages, filePaths, q, sameCommits, tries, type Kind, type Task } from "./tasks-kind.ts";

/** A folder with some history and at most `maxFiles` files (the truth of who wrote it blames each). */
function folder(f: RepoFacts, maxFiles = 60) {
  const x = pick(f, f.folders.filter((d) => d.commits >= 10 && d.files <= maxFiles));
  return x && { kind: "", what: `${x.path}/`, path: x.path };
}

const hotspots: Kind = {
  name: "where the churn is in this folder",
  draw: (f) => folder(f, 100_000),
  git: (t, run) => run(`git log -n 500 --format= --name-only -- ${q(t.path as string)} | sort | uniq -c | sort -rn | head -n 10`),
  lore: async (t, call) => void (await call("hotspots", { path: t.path })),
  check(t, f, [h]) {
    const counts = new Map<string, number>();
    for (const p of gitLines(f.dir, ["log", "--no-merges", "--full-history", "-n", "500", "--format=", "--name-only", "HEAD", "--", t.path as string])) counts.set(p, (counts.get(p) ?? 0) + 1);
    // The model's rows: { path under `under`: commits }, or [path, commits] tuples (or objects, as --json has them).
    const pairs: any[] = h?.commits ? Object.entries(h.commits) : (h?.results ?? []);
    const rows: any[] = pairs.map((r: any) => (Array.isArray(r) ? { path: (h.under ?? "") + r[0], commits: r[1] } : r));
    if (rows.length === 0) return ["no files"];
    return rows.filter((r) => counts.get(r.path) !== r.commits).map((r) => `${r.path}: ${r.commits} vs git ${counts.get(r.path)}`);
  },
};

/** Lines per person (one row a person, as identity-truth says) of git blame over the folder's text files at HEAD, most first. */
function blamePeople(f: RepoFacts, path: string): [string, number][] {
  const person = gitPeople(f.dir);
  const sums = new Map<string, number>();
  for (const x of f.files.filter((x) => x.path.startsWith(path + "/"))) {
    const out = sh(f.dir, `git blame --line-porcelain HEAD -- ${q(x.path)}`);
    let author = "";
    for (const line of out.split("\n")) {
      if (line.startsWith("author ")) author = line.slice(7);
      else if (line.startsWith("author-mail ")) {
        const p = person(author, line.slice(12).replace(/^<|>$/g, ""));
        sums.set(p, (sums.get(p) ?? 0) + 1);
      }
    }
  }
  return [...sums].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

const contributors: Kind = {
  name: "who knows this folder",
  draw: (f) => folder(f),
  git: (t, run) => run(`git shortlog -sne HEAD -- ${q(t.path as string)}`),
  lore: async (t, call) => void (await call("contributors", { path: t.path })),
  check(t, f, [c]) {
    // People first, then bots (lore lists a bot after the people, whatever it owns).
    const bot = (who: string) => isBot(who.replace(/ <[^<>]*>$/, ""), /<([^<>]*)>$/.exec(who)?.[1] ?? "");
    const all = blamePeople(f, t.path as string);
    const truth = [...all.filter(([w]) => !bot(w)), ...all.filter(([w]) => bot(w))].slice(0, 3);
    // The model's rows: { "Name <email>": [lines, lastChanged] } (or objects, as --json has them).
    const rows: [string, number][] = Array.isArray(c?.results) ? c.results.map((r: any) => [`${r.author} <${r.email}>`, r.lines]) : Object.entries(c?.results ?? {}).map(([who, v]: [string, any]) => [who, v[0]]);
    return truth.flatMap(([who, n], i) => {
      const r = rows[i];
      return r && r[0] === who && r[1] === n ? [] : [`#${i + 1}: ${r ? `${r[0]} ${r[1]}` : "none"} vs git ${who} ${n}`];
    });
  },
};

const owners: Kind = {
  name: "who owns this folder",
  draw: (f) => folder(f),
  git: (t, run) => run(`git ls-files -z -- ${q(t.path as string)} | xargs -0 -n1 git blame --line-porcelain HEAD -- | sed -n 's/^author //p' | sort | uniq -c | sort -rn | head -n 10`),
  lore: async (t, call) => void (await call("owners", { path: t.path })),
  check(t, f, [o]) {
    const [top] = blamePeople(f, t.path as string);
    if (!top) return ["git finds no lines"];
    const name = top[0].replace(/ <[^<>]*>$/, "");
    return JSON.stringify(o ?? {}).includes(JSON.stringify(name)) ? [] : [`the folder's main author ${name} is not named`];
  },
};

const recent: Kind = {
  name: "what did the last commits do",
  draw: (f) => {
    const n = pick(f, [5, 10, 20])!;
    return { kind: "", what: `the last ${n} commits`, n };
  },
  git: (t, run) => run(`git log -n ${t.n} --stat`),
  lore: async (t, call) => void (await call("log", { limit: t.n })),
  check: (t, f, [l]) => sameCommits("log", (l?.commits ?? []).map((c: any) => c.sha), gitLines(f.dir, ["log", "-n", String(t.n), "--format=%H"])),
};

const commit: Kind = {
  name: "what did commit X change",
  draw: (f) => {
    const sha = pick(f, f.commits.slice(0, 1000));
    return sha ? { kind: "", what: sha.slice(0, 12), sha: sha.slice(0, 12) } : undefined;
  },
  git: (t, run) => run(`git show --stat ${t.sha}`),
  lore: async (t, call) => void (await call("show", { rev: t.sha })),
  check(t, f, [s]) {
    const files = gitLines(f.dir, ["show", "--format=", "--name-only", t.sha as string]);
    // The JSON's files, or the text answer's file lines ("M  path  +1 -2").
    const listed: string[] = s?.files ? s.files.map((x: any) => x.path) : files.filter((p) => (s?.text ?? "").includes(` ${p} `) || (s?.text ?? "").includes(` ${p}\n`));
    const shown = files.slice(0, 50);
    return shown.every((p) => listed.includes(p)) ? [] : [`files: ${listed.length} vs git ${files.length}`];
  },
};

const branch: Kind = {
  name: "what this branch changes",
  draw: (f) => tries(40, () => {
    const m = pick(f, f.merges);
    if (!m) return undefined;
    const n = Number(sh(f.dir, `git rev-list --count ${m[1]}..${m[2]}`).trim());
    return n >= 2 && n <= 60 ? { kind: "", what: `${m[2].slice(0, 12)} since ${m[1].slice(0, 12)} (${n} commits)`, base: m[1].slice(0, 12), head: m[2].slice(0, 12) } : undefined;
  }),
  git(t, run) {
    run(`git log --stat ${t.base}..${t.head}`);
    run(`git diff --stat ${t.base}...${t.head}`);
  },
  // The rest of the commits and files, when the first answer was cut: its continue token.
  lore: async (t, call) => void (await allPages(call, "compare", { base: t.base, head: t.head })),
  check: branchFacts,
};

/** Every commit of base..head and every file of git diff base...head, in git's order, each once. */
function branchFacts(t: Task, f: RepoFacts, answers: any[]): string[] {
  const shas = answers.flatMap((a) => (a?.commits ?? []).map((c: any) => c.sha));
  const files = gitLines(f.dir, ["-c", "core.quotepath=off", "diff", "--name-only", "-M", `${t.base}...${t.head}`]);
  // (Within a page the model's copy groups files by folder: the pages keep git's order, a page its folders'.)
  const mine = answers.flatMap(filePaths);
  const same = mine.length === files.length && [...mine].sort().every((p, i) => p === [...files].sort()[i]);
  return [...sameCommits("compare", shas, gitLines(f.dir, ["log", "--format=%H", `${t.base}..${t.head}`])), ...(same ? [] : [`files: ${mine.length} (${new Set(mine).size} distinct) vs git ${files.length}`])];
}

const biggest = new Map<string, Task | undefined>();

/** The merge of a branch (of up to 80 commits) that changed the most files: a pull request too big for one answer (hono: 44 commits, 308 files). */
const bigBranch: Kind = {
  name: "what this big branch changes (all files)",
  draw: (f) => {
    if (biggest.has(f.dir)) return biggest.get(f.dir);
    let best: { files: number; m: [string, string, string]; n: number } | undefined;
    for (const m of f.merges) {
      const n = Number(sh(f.dir, `git rev-list --count ${m[1]}..${m[2]}`).trim());
      if (n < 2 || n > 80) continue;
      const files = gitLines(f.dir, ["diff", "--name-only", `${m[1]}...${m[2]}`]).length;
      if (!best || files > best.files) best = { files, m, n };
    }
    const task = best && { kind: "", what: `${best.m[2].slice(0, 12)} since ${best.m[1].slice(0, 12)} (${best.n} commits, ${best.files} files)`, base: best.m[1].slice(0, 12), head: best.m[2].slice(0, 12) };
    biggest.set(f.dir, task);
    return task;
  },
  git(t, run) {
    run(`git log --oneline ${t.base}..${t.head}`);
    run(`git diff --stat ${t.base}...${t.head}`);
  },
  lore: async (t, call) => void (await allPages(call, "compare", { base: t.base, head: t.head })),
  check: branchFacts,
};

const word: Kind = {
  name: "commits whose message mentions a word",
  draw: (f) => {
    const w = pick(f, [...f.words].filter(([, n]) => n >= 3 && n <= 150).map(([w]) => w));
    return w ? { kind: "", what: w, word: w } : undefined;
  },
  git: (t, run) => run(`git log -i --grep=${q(t.word as string)} -n 20`),
  lore: async (t, call) => void (await call("search", { query: t.word })),
  check(t, f, [s]) {
    const truth = new Set(grepWholeWords(f.dir, [t.word as string]));
    const rows: any[] = s?.results ?? [];
    const wrong = rows.filter((r) => ![...truth].some((sha) => sha.startsWith(r.sha)));
    // total: left out when it is the number of rows listed.
    const total = s?.total ?? (s?.continue ? undefined : rows.length);
    return [...(total === truth.size ? [] : [`total ${total} vs git ${truth.size}`]), ...wrong.map((r) => `${r.sha} does not mention it`), ...(rows.length === Math.min(20, truth.size) ? [] : [`${rows.length} commits listed`])];
  },
};

const since: Kind = {
  name: "what changed under a folder since a date",
  draw: (f) => tries(20, () => {
    const d = folder(f, 100_000);
    if (!d) return undefined;
    const k = 3 + Math.floor(f.rand() * 15);
    const day = gitLines(f.dir, ["log", "--no-merges", "-n", String(k), "--format=%cs", "HEAD", "--", d.path]).pop();
    // git reads a bare date as that day at the current time of day: the day before reaches all of that day's commits, at any hour.
    const date = day && new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    return date ? { ...d, what: `${d.path}/ since ${date}`, date } : undefined;
  }),
  git: (t, run) => run(`git log --since=${t.date} --stat -- ${q(t.path as string)}`),
  lore: async (t, call) => void (await allPages(call, "log", { paths: [t.path], since: t.date })),
  check(t, f, answers) {
    const shas = [...new Set(answers.flatMap((a) => (a?.commits ?? []).map((c: any) => c.sha)))];
    return sameCommits("log --since", shas, gitLines(f.dir, ["log", `--since=${t.date}`, "--format=%H", "HEAD", "--", t.path as string]));
  },
};

export const REPO_KINDS: Kind[] = [hotspots, contributors, owners, recent, commit, branch, bigBranch, word, since];

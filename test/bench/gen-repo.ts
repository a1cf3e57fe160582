/** Generates a deterministic, seeded synthetic git repository through one `git fast-import` stream, for benchmarks. */
// The parts live beside it: gen-repo-random.ts (the seeded draws), gen-repo-text.ts (words, lines, messages),
// gen-repo-model.ts (the files and how they change), gen-repo-stream.ts (the fast-import pipe).
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { isUsageError, LoreError } from "../../src/errors.ts";
import { gitText } from "../../src/git/run.ts";
import { MAIN, Model, TOPIC } from "./gen-repo-model.ts";
import { Random, weighted } from "./gen-repo-random.ts";
import { ImportStream } from "./gen-repo-stream.ts";
import { AUTHOR_WEIGHTS, AUTHORS, LARGE_SUBJECTS, message, VERBS, words, WORDS } from "./gen-repo-text.ts";

export interface GenerateOptions {
  /** Folder for the repository; created if missing, must be empty if present. */
  dir: string;
  /** Commits reachable from HEAD, merge commits and side-branch commits included (= `git rev-list --count HEAD`). */
  commits: number;
  /** Files in the tree at HEAD, exactly (the history starts with 30% of them and grows). */
  files: number;
  /** 32-bit seed (default 1); same seed and sizes give the same HEAD sha. */
  seed?: number;
  /** A short side branch is merged back about once per this many commits (default 25); 0 turns merges off. */
  mergeEvery?: number;
}

export interface GeneratedRepo {
  dir: string;
  head: string;
  seconds: number;
  /** Ground truth for co-change rankings: the paths at HEAD of each cluster of files edited together. */
  clusters: string[][];
}

/** Keeps git away from the machine's own config (identities, hooks, autocrlf) so output depends only on the options. */
const ISOLATED = { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };

function check(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) throw new LoreError("BAD_ARGUMENT", `${name} must be a whole number of at least ${min}; got ${value}.`);
}

function validate(opts: Omit<GenerateOptions, "dir">): void {
  check("commits", opts.commits, 1);
  check("files", opts.files, 1);
  check("seed", opts.seed ?? 1, 0);
  if ((opts.mergeEvery ?? 25) !== 0) check("mergeEvery", opts.mergeEvery ?? 25, 2);
}

export async function generateRepo(opts: GenerateOptions): Promise<GeneratedRepo> {
  const started = performance.now();
  const n = opts.commits;
  const mergeEvery = opts.mergeEvery ?? 25;
  validate(opts);
  const dir = resolve(opts.dir);
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new LoreError("BAD_ARGUMENT", `${dir} is not empty; give the generator a new or empty folder.`);
  mkdirSync(dir, { recursive: true });
  const git = (args: string[]) => gitText(args, { cwd: dir, env: ISOLATED, timeoutMs: 600_000 });
  await git(["init", "-q", "-b", "main"]);

  const r = new Random(opts.seed ?? 1);
  const model = new Model(r, opts.files);
  const out = new ImportStream(dir, ISOLATED);
  const initial = n === 1 ? opts.files : Math.ceil(opts.files * 0.3);
  const growEnd = Math.max(1, Math.floor(n * 0.6));
  // Fixed dates from the seed: a start somewhere in 2015 and gaps averaging about three years / commits.
  let time = 1420070400 + r.int(365 * 86400);
  const meanGap = Math.min(2 * 86400, Math.max(300, Math.floor((3 * 365 * 86400) / n)));
  let mark = 0;
  let renames = 0;
  let deletes = 0;

  const header = (ref: string, author: number, msg: string, extra = "") => {
    time += 1 + Math.floor(4 * meanGap * r.next() * r.next());
    const [name, email, tz] = AUTHORS[author]!;
    const who = `${name} <${email}> ${time} ${tz}\n`;
    out.text(`commit refs/heads/${ref}\nmark :${++mark}\nauthor ${who}committer ${who}`);
    out.data(msg);
    out.text(extra);
  };
  const modify = (id: number) => {
    const f = model.files[id]!;
    out.text(`M 100644 inline ${f.path}\n`);
    out.data(f.lines ? f.lines.join("\n") + "\n" : f.bytes!);
  };

  /** One ordinary commit on a branch; every commit ends with the tree holding the scheduled number of files. */
  const commit = (branch: number, from: number) => {
    const ref = branch === MAIN ? "main" : "topic";
    const extra = from > 0 ? `from :${from}\n` : "";
    const index = mark;
    const removed: string[] = [];
    const moved: [string, number][] = [];
    const edited: number[] = [];
    let subject = "";
    let author = weighted(r, AUTHOR_WEIGHTS);
    if (model.live.length >= 60 && r.chance(1 / 800)) {
      subject = r.pick(LARGE_SUBJECTS);
      for (let k = r.range(51, 180); k > 0; k--) {
        const id = model.pickAny(branch, true);
        if (id >= 0 && !edited.includes(id)) {
          model.tweak(id, branch);
          edited.push(id);
        }
      }
    } else if (model.live.length >= 3 && (r.chance(0.012) || (renames === 0 && index >= n / 3))) {
      const id = model.pickAny(branch);
      if (id >= 0) {
        const old = model.files[id]!.path;
        moved.push([old, id]);
        const to = model.move(id, branch);
        renames++;
        subject = to.slice(0, to.lastIndexOf("/")) === old.slice(0, old.lastIndexOf("/")) ? `Rename ${old} to ${to}` : `Move ${old} to ${to.slice(0, to.lastIndexOf("/"))}`;
        if (r.chance(0.5) && model.files[id]!.lines) {
          model.tweak(id, branch);
          edited.push(id);
        }
      }
    } else if (model.live.length >= 3 && (r.chance(0.006) || (deletes === 0 && index >= n / 2))) {
      for (let k = r.range(1, 3); k > 0; k--) {
        const id = model.pickAny(branch);
        if (id < 0) continue;
        removed.push(model.files[id]!.path);
        model.remove(id, branch);
        deletes++;
      }
      if (removed.length > 0) subject = `Remove unused ${removed[0]!.slice(removed[0]!.lastIndexOf("/") + 1)}`;
    }
    if (subject === "") {
      const primary = model.pickHot(branch);
      if (primary >= 0) {
        const cluster = model.files[primary]!.cluster;
        if (r.chance(0.6)) author = model.clusterOwner[cluster]!;
        edited.push(primary);
        // Co-change: most commits also touch the primary file's cluster mates, then a little noise.
        if (r.chance(0.75)) for (const m of model.clusters[cluster]!) if (m !== primary && model.usable(m, branch) && r.chance(0.6)) edited.push(m);
        for (let k = 0; k < 4 && r.chance(0.25); k++) {
          const id = model.pickHot(branch);
          if (id >= 0 && !edited.includes(id)) edited.push(id);
        }
        for (const id of edited) model.edit(id, branch);
        const p = model.files[primary]!.path;
        subject = `${r.pick(VERBS)} ${words(r, r.range(1, 3))} in ${p.slice(p.lastIndexOf("/") + 1, p.indexOf(".", p.lastIndexOf("/")))}`;
      }
    }
    const target = index >= growEnd ? opts.files : initial + Math.floor(((opts.files - initial) * index) / growEnd);
    const added: number[] = [];
    while (model.live.length < target) added.push(model.create(branch, model.files.length === 0 || r.chance(0.004)));
    if (subject === "") subject = added.length > 0 ? `Add ${model.files[added[0]!]!.path}` : `Touch up ${words(r, 2)}`;
    header(ref, author, message(r, subject), extra);
    for (const p of removed) out.text(`D ${p}\n`);
    for (const [old, id] of moved) out.text(`R ${old} ${model.files[id]!.path}\n`);
    for (const id of edited) if (model.files[id]!.alive) modify(id);
    for (const id of added) modify(id);
  };

  header("main", 0, "Initial import\n");
  for (let i = 0; i < initial; i++) modify(model.create(MAIN, i === 0 || r.chance(0.004)));
  let nextMerge = mergeEvery;
  while (mark < n) {
    const remaining = n - mark;
    let side = r.range(1, 3);
    let onMain = r.range(0, 2);
    if (mergeEvery > 0 && remaining >= 2 && mark + side + onMain + 1 >= nextMerge) {
      side = Math.min(side, remaining - 1);
      onMain = Math.min(onMain, remaining - 1 - side);
      const fork = mark;
      model.windowOpen = true;
      const order = [...Array<number>(side).fill(TOPIC), ...Array<number>(onMain).fill(MAIN)];
      for (let i = order.length - 1; i > 0; i--) {
        const j = r.int(i + 1);
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      let topicHead = 0;
      let first = true;
      for (const branch of order) {
        commit(branch, branch === TOPIC && first ? fork : 0);
        if (branch === TOPIC) {
          first = false;
          topicHead = mark;
        }
        await out.maybeFlush();
      }
      // The merge's tree is main's plus the side branch's versions of the files only it touched.
      const name = `feature/${r.pick(WORDS)}-${r.range(1, 999)}`;
      header("main", weighted(r, [5, 3, 2]), message(r, `Merge branch '${name}'`), `merge :${topicHead}\n`);
      for (const [id, was] of model.forkPath) {
        const f = model.files[id]!;
        if (was !== null && (!f.alive || was !== f.path)) out.text(`D ${was}\n`);
        if (f.alive) modify(id);
      }
      model.closeWindow();
      nextMerge += mergeEvery;
    } else commit(MAIN, 0);
    await out.maybeFlush();
  }
  await out.finish();

  if (mark > n) throw new LoreError("INTERNAL", `generator wrote ${mark} commits instead of ${n}`);
  if (mergeEvery > 0 && n > 1) await git(["update-ref", "-d", "refs/heads/topic"]).catch(() => "");
  await git(["reset", "-q", "--hard", "HEAD"]);
  const head = await git(["rev-parse", "HEAD"]);
  const clusters = model.clusters.map((ids) => ids.map((id) => model.files[id]!.path)).filter((c) => c.length >= 2);
  return { dir, head, seconds: Math.round(performance.now() - started) / 1000, clusters };
}

const USAGE = "usage: bun test/bench/gen-repo.ts [--commits 1000] [--files 200] [--seed 1] [--merge-every 25] [--out DIR]";

function cliArgs() {
  try {
    const options = { commits: { type: "string" }, files: { type: "string" }, seed: { type: "string" }, "merge-every": { type: "string" }, out: { type: "string" } } as const;
    return parseArgs({ options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new LoreError("USAGE", `${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  }
}

if (import.meta.main) {
  try {
    const values = cliArgs();
    const num = (v: string | undefined, fallback: number) => (v === undefined ? fallback : Number(v));
    const sizes = { commits: num(values.commits, 1000), files: num(values.files, 200), seed: num(values.seed, 1), mergeEvery: num(values["merge-every"], 25) };
    validate(sizes);
    const opts = { ...sizes, dir: values.out ?? mkdtempSync(join(tmpdir(), "lore-bench-")) };
    const repo = await generateRepo(opts);
    console.log(`${repo.dir}  commits=${opts.commits} files=${opts.files} seed=${opts.seed}  HEAD ${repo.head}  ${repo.seconds.toFixed(2)} s`);
  } catch (err) {
    console.error(`gen-repo: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(err instanceof LoreError && (isUsageError(err.code) || err.code === "BAD_ARGUMENT") ? 2 : 1);
  }
}

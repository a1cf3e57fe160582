/** Generates a deterministic, seeded synthetic git repository through one `git fast-import` stream, for benchmarks. */
// One file rather than several: the brief for this generator named exactly two files, and the
// model, the text and the stream only make sense together.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { isUsageError, LoreError } from "../../src/errors.ts";
import { gitEnv } from "../../src/git/environment.ts";
import { gitText } from "../../src/git/run.ts";

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

const MIN_LINES = 10;
const MAX_LINES = 2000;
const MAIN = 1;
const TOPIC = 2;

/** mulberry32: tiny, fast, and only integer ops and one division, so every engine draws the same numbers. */
class Random {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    const s = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

const WORDS = (
  "alpha buffer cache delta event frame graph handle index job key layer model node option parser queue route store " +
  "token update value worker batch client config daemon entry filter group hash input kernel limit merge network output " +
  "packet query record schema table timer user vector window zone blame commit branch diff hunk patch tree blob ref tag " +
  "author range scope stream socket signal state trace metric report render format loader plugin module bundle logger " +
  "policy session ticket widget cursor anchor bridge cluster domain engine factor gate hook image ledger mirror notice " +
  "orbit pivot quota relay shard tensor unit vault"
).split(" ");
const VERBS = ["Fix", "Add", "Refactor", "Improve", "Update", "Handle", "Simplify", "Clean up", "Support", "Tweak", "Document", "Speed up"];
const OPS = ["<", ">", "===", "!==", "<=", ">="];
const INDENT = ["", "  ", "    ", "      "];
const LARGE_SUBJECTS = ["Reformat the code base", "Update license headers", "Apply new lint rules", "Rename shared helpers across the tree"];

/** Name, email, timezone; the weights give the skew of a real team (one lead, a long tail). */
const AUTHORS: readonly (readonly [string, string, string])[] = [
  ["Avery Quinn", "avery@bench.lore.example", "+0000"],
  ["Blake Ortiz", "blake@bench.lore.example", "-0700"],
  ["Casey Nakamura", "casey@bench.lore.example", "+0900"],
  ["Devon Okafor", "devon@bench.lore.example", "+0100"],
  ["Emery Lindqvist", "emery@bench.lore.example", "+0200"],
  ["Finley Duarte", "finley@bench.lore.example", "-0300"],
  ["Gray Moreau", "gray@bench.lore.example", "+0100"],
  ["Harper Iyer", "harper@bench.lore.example", "+0530"],
  ["Indigo Kowalski", "indigo@bench.lore.example", "-0500"],
  ["Jules Abara", "jules@bench.lore.example", "+1000"],
];
const AUTHOR_WEIGHTS = [34, 20, 13, 9, 7, 5, 4, 3, 3, 2];
const EXTS: readonly (readonly [string, number])[] = [["ts", 45], ["tsx", 8], ["js", 8], ["test.ts", 12], ["md", 8], ["json", 6], ["yml", 4], ["css", 5], ["sh", 4]];

function weighted(r: Random, weights: readonly number[]): number {
  let total = 0;
  for (const w of weights) total += w;
  let u = r.int(total);
  for (let i = 0; i < weights.length; i++) if ((u -= weights[i]!) < 0) return i;
  return 0;
}

const CAPITALIZED = WORDS.map((w) => w[0]!.toUpperCase() + w.slice(1));

function ident(r: Random): string {
  const w = r.pick(WORDS);
  return r.chance(0.5) ? w + r.pick(CAPITALIZED) : r.chance(0.3) ? w + r.int(100) : w;
}

function words(r: Random, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(r.pick(WORDS));
  return out.join(" ");
}

/** One line of a file; random numbers and identifiers keep lines distinct, so blame and rename detection have something to hold. */
function line(r: Random, kind: string): string {
  if (kind === "md") {
    const k = r.int(8);
    return k === 0 ? "" : k === 1 ? `## ${words(r, 3)}` : `${words(r, 6 + r.int(9))}.`;
  }
  if (kind === "json" || kind === "yml") return kind === "json" ? `  "${ident(r)}": ${r.int(10000)},` : `${INDENT[r.int(3)]}${ident(r)}: ${r.pick(WORDS)}-${r.int(1000)}`;
  const ind = INDENT[r.int(4)]!;
  switch (r.int(12)) {
    case 0:
    case 1:
      return "";
    case 2:
      return `${ind}}`;
    case 3:
      return `${ind}// ${words(r, 3 + r.int(7))}`;
    case 4:
      return `${ind}const ${ident(r)} = ${ident(r)}(${ident(r)}, ${r.int(1000)});`;
    case 5:
      return `${ind}if (${ident(r)} ${r.pick(OPS)} ${r.int(1000)}) {`;
    case 6:
      return `${ind}return ${ident(r)}.${ident(r)}(${ident(r)});`;
    case 7:
      return `${ind}${ident(r)}.${ident(r)} = ${r.int(10000)};`;
    case 8:
      return `${ind}export function ${ident(r)}(${ident(r)}: ${ident(r)}): number {`;
    case 9:
      return `${ind}for (const ${ident(r)} of ${ident(r)}) ${ident(r)}(${ident(r)});`;
    case 10:
      return `${ind}let ${ident(r)} = "${words(r, 1 + r.int(4))}";`;
    default:
      return `${ind}await ${ident(r)}.${ident(r)}(${r.int(100)}, ${ident(r)});`;
  }
}

function message(r: Random, subject: string): string {
  if (!r.chance(0.35)) return subject + "\n";
  const paras: string[] = [];
  for (let p = r.range(1, 3); p > 0; p--) {
    const rows: string[] = [];
    for (let l = r.range(1, 4); l > 0; l--) rows.push(words(r, r.range(7, 12)));
    paras.push(rows.join("\n"));
  }
  if (r.chance(0.3)) paras.push(`Refs: #${r.range(1, 5000)}`);
  return `${subject}\n\n${paras.join("\n\n")}\n`;
}

interface FileState {
  path: string;
  kind: string;
  lines: string[] | null;
  bytes: Uint8Array | null;
  cluster: number;
  slot: number;
  target: number;
  alive: boolean;
}

/** The repository's current state (the union of main and an open side branch, which never touch the same file). */
class Model {
  readonly files: FileState[] = [];
  readonly live: number[] = [];
  private readonly livePos: number[] = [];
  readonly clusters: number[][] = [];
  private readonly clusterCap: number[] = [];
  readonly clusterOwner: number[] = [];
  private readonly clusterDir: string[] = [];
  private readonly openClusters: number[] = [];
  private readonly usedPaths = new Set<string>();
  readonly dirs: string[] = ["src", "lib", "test", "docs", "tools"];
  /** Churn slots: slot i is edited with weight 1/(i+1), a Zipf law; files take random free slots. */
  private readonly slotFile: Int32Array;
  private readonly freeSlots: number[] = [];
  private readonly cumulative: Float64Array;
  private readonly hotSlots: number;
  /** During a side-branch window, which branch has touched a file; the other branch leaves it alone. */
  lock: number[] = [];
  windowOpen = false;
  readonly touchedInWindow: number[] = [];
  /** For files the side branch touched: their path at the fork, or null if the side branch created them. */
  readonly forkPath = new Map<number, string | null>();

  constructor(private readonly r: Random, capacity: number) {
    this.slotFile = new Int32Array(capacity).fill(-1);
    this.cumulative = new Float64Array(capacity);
    let sum = 0;
    for (let i = 0; i < capacity; i++) {
      sum += 1 / (i + 1);
      this.cumulative[i] = sum;
      this.freeSlots.push(i);
    }
    this.hotSlots = Math.max(5, Math.floor(capacity / 200));
    for (let k = Math.max(3, Math.round(capacity / 12)); k > 0; k--) {
      let parent = r.pick(this.dirs);
      if (parent.split("/").length >= 6) parent = r.pick(this.dirs.slice(0, 5));
      let dir = `${parent}/${r.pick(WORDS)}`;
      if (this.dirs.includes(dir)) dir += `_${k}`;
      this.dirs.push(dir);
    }
  }

  usable(id: number, branch: number): boolean {
    const f = this.files[id]!;
    return f.alive && (!this.windowOpen || (this.lock[id] ?? 0) === 0 || this.lock[id] === branch);
  }

  touch(id: number, branch: number, created = false): void {
    if (!this.windowOpen || this.lock[id]) return;
    this.lock[id] = branch;
    this.touchedInWindow.push(id);
    if (branch === TOPIC) this.forkPath.set(id, created ? null : this.files[id]!.path);
  }

  closeWindow(): void {
    for (const id of this.touchedInWindow) this.lock[id] = 0;
    this.touchedInWindow.length = 0;
    this.forkPath.clear();
    this.windowOpen = false;
  }

  /** A file by churn weight, skipping ones the other branch holds; -1 when nothing is usable. */
  pickHot(branch: number): number {
    const c = this.cumulative;
    for (let t = 0; t < 32; t++) {
      const u = this.r.next() * c[c.length - 1]!;
      let lo = 0;
      let hi = c.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (c[mid]! > u) hi = mid;
        else lo = mid + 1;
      }
      const id = this.slotFile[lo]!;
      if (id >= 0 && this.usable(id, branch)) return id;
    }
    return this.pickAny(branch);
  }

  pickAny(branch: number, text = false): number {
    for (let t = 0; t < 64 && this.live.length > 0; t++) {
      const id = this.r.pick(this.live);
      if (this.usable(id, branch) && (!text || this.files[id]!.lines)) return id;
    }
    return -1;
  }

  private uniquePath(dir: string, stem: string, ext: string): string {
    let path = `${dir}/${stem}.${ext}`;
    for (let n = 2; this.usedPaths.has(path); n++) path = `${dir}/${stem}_${n}.${ext}`;
    this.usedPaths.add(path);
    return path;
  }

  create(branch: number, binary: boolean): number {
    const r = this.r;
    const id = this.files.length;
    let cluster = -1;
    while (this.openClusters.length > 0 && r.chance(0.7)) {
      const k = r.int(this.openClusters.length);
      const c = this.openClusters[k]!;
      if (this.clusters[c]!.length < this.clusterCap[c]!) {
        cluster = c;
        break;
      }
      this.openClusters[k] = this.openClusters[this.openClusters.length - 1]!;
      this.openClusters.pop();
    }
    if (cluster < 0) {
      cluster = this.clusters.length;
      this.clusters.push([]);
      this.clusterCap.push(r.range(2, 8));
      this.clusterOwner.push(weighted(r, AUTHOR_WEIGHTS));
      this.clusterDir.push(r.pick(this.dirs));
      this.openClusters.push(cluster);
    }
    this.clusters[cluster]!.push(id);
    let slot = -1;
    if (this.freeSlots.length > 0) {
      const k = r.int(this.freeSlots.length);
      slot = this.freeSlots[k]!;
      this.freeSlots[k] = this.freeSlots[this.freeSlots.length - 1]!;
      this.freeSlots.pop();
      this.slotFile[slot] = id;
    }
    // Small files are the rule and long ones the exception; hot files stay under 600 lines so the
    // pack does not balloon (fast-import stores inline blobs undeltified).
    let target = r.chance(0.85) ? MIN_LINES + Math.floor(190 * r.next() * r.next()) : 100 + Math.floor(1900 * r.next() * r.next() * r.next());
    if (slot >= 0 && slot < this.hotSlots) target = Math.min(target, 600);
    const ext = binary ? r.pick(["png", "woff2", "bin"]) : EXTS[weighted(r, EXTS.map((e) => e[1]))]![0];
    const dir = binary ? "assets" : r.chance(0.8) ? this.clusterDir[cluster]! : r.pick(this.dirs);
    const stem = r.chance(0.5) ? `${r.pick(WORDS)}_${r.pick(WORDS)}` : r.pick(WORDS);
    const kind = ext === "md" || ext === "json" || ext === "yml" ? ext : "code";
    const f: FileState = { path: this.uniquePath(dir, stem, ext), kind, lines: null, bytes: null, cluster, slot, target, alive: true };
    if (binary) f.bytes = this.binary();
    else {
      f.lines = [];
      for (let n = Math.max(MIN_LINES, Math.floor(target * (0.4 + 0.6 * r.next()))); n > 0; n--) f.lines.push(line(r, kind));
    }
    this.files.push(f);
    this.livePos[id] = this.live.length;
    this.live.push(id);
    this.touch(id, branch, true);
    return id;
  }

  binary(): Uint8Array {
    const b = new Uint8Array(this.r.range(256, 16384));
    for (let i = 0; i < b.length; i++) b[i] = this.r.int(256);
    b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d], 0);
    return b;
  }

  remove(id: number, branch: number): void {
    this.touch(id, branch);
    const f = this.files[id]!;
    f.alive = false;
    f.lines = null;
    f.bytes = null;
    const pos = this.livePos[id]!;
    const last = this.live.pop()!;
    if (last !== id) {
      this.live[pos] = last;
      this.livePos[last] = pos;
    }
    const members = this.clusters[f.cluster]!;
    members.splice(members.indexOf(id), 1);
    if (members.length === this.clusterCap[f.cluster]! - 1) this.openClusters.push(f.cluster);
    if (f.slot >= 0) {
      this.slotFile[f.slot] = -1;
      this.freeSlots.push(f.slot);
    }
  }

  move(id: number, branch: number): string {
    this.touch(id, branch);
    const f = this.files[id]!;
    const slash = f.path.lastIndexOf("/");
    const base = f.path.slice(slash + 1);
    const dot = base.indexOf(".");
    const elsewhere = this.r.chance(0.5) && f.lines !== null;
    const dir = elsewhere ? this.r.pick(this.dirs) : f.path.slice(0, slash);
    const stem = elsewhere ? base.slice(0, dot) : `${this.r.pick(WORDS)}_${base.slice(0, dot)}`;
    f.path = this.uniquePath(dir, stem, base.slice(dot + 1));
    return f.path;
  }

  /** Rewrites one line: the edit of a sweeping change, and small enough that a renamed file is still found as a rename. */
  tweak(id: number, branch: number): void {
    this.touch(id, branch);
    const lines = this.files[id]!.lines;
    if (lines) lines[this.r.int(lines.length)] = line(this.r, this.files[id]!.kind);
  }

  /** Edits a text file in one to five hunks that insert, delete or rewrite lines, drifting toward its target length. */
  edit(id: number, branch: number): void {
    this.touch(id, branch);
    const r = this.r;
    const f = this.files[id]!;
    if (!f.lines) {
      f.bytes = this.binary();
      return;
    }
    const lines = f.lines;
    for (let h = r.chance(0.3) ? r.range(2, 5) : 1; h > 0; h--) {
      const n = lines.length;
      const growing = n < f.target;
      const roll = r.next();
      if (roll < (growing ? 0.45 : 0.2) && n < MAX_LINES) {
        const fresh: string[] = [];
        for (let k = Math.min(r.range(1, 12), MAX_LINES - n); k > 0; k--) fresh.push(line(r, f.kind));
        lines.splice(r.int(n + 1), 0, ...fresh);
      } else if (roll < (growing ? 0.6 : 0.55) && n > MIN_LINES) {
        const k = Math.min(r.range(1, 8), n - MIN_LINES);
        lines.splice(r.int(n - k + 1), k);
      } else {
        const at = r.int(n);
        for (let k = Math.min(r.range(1, 4), n - at); k > 0; k--) lines[at + k - 1] = line(r, f.kind);
      }
    }
  }
}

/** Buffers the fast-import stream and writes it in large chunks, waiting when git's pipe is full. */
class ImportStream {
  private readonly child;
  private texts: string[] = [];
  private parts: Uint8Array[] = [];
  private size = 0;
  private stderr = "";
  private readonly exit: Promise<number | null>;

  constructor(dir: string, env: Record<string, string>) {
    // Level-1 zlib and a glibc heap that does not shrink after every blob make fast-import about a third
    // faster; neither changes an object id, only how the pack stores them.
    const tuned = { ...env, GLIBC_TUNABLES: "glibc.malloc.trim_threshold=536870912:glibc.malloc.top_pad=67108864:glibc.malloc.mmap_threshold=536870912" };
    const args = ["-c", "pack.compression=1", "fast-import", "--quiet", "--done", "--date-format=raw"];
    this.child = spawn("git", args, { cwd: dir, env: gitEnv(tuned), stdio: ["pipe", "ignore", "pipe"] });
    this.child.stderr.on("data", (c: Buffer) => (this.stderr += c.toString("utf8")));
    this.child.stdin.on("error", () => {});
    this.exit = new Promise((done) => {
      this.child.on("error", () => done(-1));
      this.child.on("close", (code) => done(code));
    });
  }

  /** Everything written is ASCII by construction, so string length is the byte count fast-import wants. */
  text(s: string): void {
    this.texts.push(s);
    this.size += s.length;
  }

  bytes(b: Uint8Array): void {
    this.collect();
    this.parts.push(b);
    this.size += b.length;
  }

  data(content: string | Uint8Array): void {
    this.text(`data ${content.length}\n`);
    if (typeof content === "string") this.text(content);
    else this.bytes(content);
    this.text("\n");
  }

  private collect(): void {
    if (this.texts.length === 0) return;
    this.parts.push(Buffer.from(this.texts.join(""), "latin1"));
    this.texts = [];
  }

  async maybeFlush(): Promise<void> {
    if (this.size < 4 << 20) return;
    this.collect();
    const chunk = Buffer.concat(this.parts);
    this.parts = [];
    this.size = 0;
    if (!this.child.stdin.write(chunk)) {
      const drained = new Promise<void>((done) => this.child.stdin.once("drain", () => done()));
      if ((await Promise.race([drained.then(() => "drained"), this.exit])) !== "drained") await this.finish();
    }
  }

  async finish(): Promise<void> {
    this.text("done\n");
    this.collect();
    this.child.stdin.end(Buffer.concat(this.parts));
    this.parts = [];
    const code = await this.exit;
    if (code !== 0) {
      const first = this.stderr.trim().split("\n")[0] || `exit status ${code}`;
      throw new LoreError("GIT_FAILED", `git fast-import failed: ${first.replace(/^fatal: /, "")}`);
    }
  }
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

/** The generator's model of the repository: live files, their clusters and churn weights, and the edits that change them. */
import { weighted, type Random } from "./gen-repo-random.ts";
import { AUTHOR_WEIGHTS, EXTS, line, WORDS } from "./gen-repo-text.ts";

const MIN_LINES = 10;
const MAX_LINES = 2000;
export const MAIN = 1;
export const TOPIC = 2;

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
export class Model {
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

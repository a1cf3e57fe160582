/**
 * What the report shows, asked of the same questions the CLI answers (hotspots, cochange, history,
 * contributors) and mapped to the page's data. The one place that knows those answers' shapes:
 * fields are read defensively (optional), so a question that gains or drops a field changes this file only.
 */
import type { ReportData, ReportFile, FolderOwner } from "./page/types.ts";
import { round } from "../queries/run/common.ts";

/**
 * Asks one question (the registry's name and input, repo already bound) and resolves to its answer;
 * remember: false where the daemon should not keep it (big answers only the report wants).
 */
export type Ask = (name: string, input: Record<string, unknown>, opts?: { remember?: boolean }) => Promise<unknown>;

/** Questions whose arguments differ between versions are asked in the shape the registry declares. */
export interface AskShape {
  /** cochange takes a list `paths` (newer) or one `path`. */
  cochangeTakesList: boolean;
}

export interface ReportOptions {
  path?: string;
  until?: string;
  /** The treemap shows at most this many files, the largest (a cell smaller than a pixel says nothing). */
  maxFiles?: number;
  /** Told what the report is doing, as it goes: a first report reads every file's history and blame, which takes minutes. */
  onProgress?: (message: string) => void;
}

/** Files in the co-change graph: the top hotspots. */
export const GRAPH_NODES = 20;
/** Commits of recent history listed per file. */
export const HISTORY_SHOWN = 5;
export const MAX_FILES = 1000;
/** One person writing at least this share of a folder's lines makes it an island. */
export const ISLAND_SHARE = 0.8;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === "object" && v !== null ? (v as Obj) : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Runs `fn` over `items`, a few at a time (the daemon answers them on one thread; in-process they share blame workers). */
async function each<T, R>(items: T[], fn: (item: T) => Promise<R>, width = 8): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}

/** The Monday (UTC) of the week holding an ISO time, as YYYY-MM-DD. */
export function weekOf(time: string): string {
  const d = new Date(time);
  const day = (d.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day)).toISOString().slice(0, 10);
}

/** The folders holding a path, outermost first, below the report's own folder ("" for the root). */
function foldersOf(path: string, root: string): string[] {
  const parts = path.split("/").slice(0, -1);
  const out: string[] = [];
  for (let i = 1; i <= parts.length; i++) {
    const f = parts.slice(0, i).join("/");
    if (root === "" || f === root || f.startsWith(root + "/")) out.push(f);
  }
  return [root, ...out.filter((f) => f !== root)];
}

/**
 * Ownership by folder from per-file contributors: lines per author summed up the tree; the main
 * author's share, how many authors, island at ≥ 80 %. When the owners question lands, this is the
 * function to point at it (`owners PATH --by folder`).
 */
export function folderOwnership(root: string, byFile: Map<string, { author: string; lines: number }[]>): FolderOwner[] {
  const folders = new Map<string, Map<string, number>>();
  for (const [path, authors] of byFile) {
    for (const f of foldersOf(path, root)) {
      let m = folders.get(f);
      if (!m) folders.set(f, (m = new Map()));
      for (const a of authors) m.set(a.author, (m.get(a.author) ?? 0) + a.lines);
    }
  }
  const out: FolderOwner[] = [];
  for (const [path, m] of folders) {
    const total = [...m.values()].reduce((s, n) => s + n, 0);
    if (total === 0) continue;
    const [author, lines] = [...m].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))[0]!;
    const share = round(lines / total);
    out.push({ path, author, share, authors: m.size, lines: total, island: share >= ISLAND_SHARE });
  }
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

/** Everything the page draws, from the questions' answers. */
export async function reportData(ask: Ask, shape: AskShape, opts: ReportOptions = {}): Promise<ReportData> {
  const until = opts.until;
  const base = { ...(opts.path ? { path: opts.path } : {}), ...(until ? { until } : {}) };
  // Every file that exists (each changed at least once in all history), with its lines; then the changes in the window.
  const say = opts.onProgress ?? (() => {});
  say("listing the files and how often each changed");
  const everything = obj(await ask("hotspots", { ...base, commits: "all", limit: 1000 }));
  const recent = obj(await ask("hotspots", { ...base, limit: 1000 }));
  const changes = new Map(list(recent.results).map((r) => [str(r.path), r]));
  const all = list(everything.results)
    .filter((r) => num(r.lines) > 0)
    .sort((x, y) => num(y.lines) - num(x.lines) || (str(x.path) < str(y.path) ? -1 : 1));
  const limit = opts.maxFiles ?? MAX_FILES;
  // hotspots lists at most 1,000 files, the most changed: a bigger tree shows those.
  const cut = everything.truncated === true;
  const shown = all.slice(0, limit);
  const root = str(everything.path);
  const rev = str(everything.rev);
  // A revision the person named is pinned to the commit it meant; without one, HEAD (and the daemon's cache of answers at HEAD).
  const at = until ? { until: rev } : {};

  const cochange = (path: string, limit?: number) =>
    ask("cochange", { ...(shape.cochangeTakesList ? { paths: [path] } : { path }), ...(limit ? { limit } : {}), ...at });
  const files: ReportFile[] = [];
  const details: ReportData["details"] = {};
  const byFile = new Map<string, { author: string; lines: number }[]>();
  const weeks = new Map<string, Set<string>>();
  let read = 0;
  const reading = () => say(`reading each file's history, co-change and authors (blame): ${read} of ${shown.length} files`);
  reading();
  await each(shown, async (r) => {
    const path = str(r.path);
    const [co, hist, who] = await Promise.all([
      cochange(path).then(obj, () => ({}) as Obj),
      // Every commit of the file, for commits per week (1.5 MB of answers on express: not kept in the daemon's cache).
      ask("history", { path, limit: 10000, ...at }, { remember: false }).then(obj, () => ({}) as Obj),
      ask("contributors", { path, limit: 1000, ...at }).then(obj, () => ({}) as Obj),
    ]);
    const authors = list(who.results).map((a) => ({ author: str(a.author), lines: num(a.lines), share: num(a.share) }));
    byFile.set(path, authors);
    const commits = list(hist.commits);
    for (const c of commits) {
      // A shallow clone's boundary commit is no change of the file's: it is where its history stops.
      if (c.boundary === true) continue;
      const w = weekOf(str(c.time));
      let s = weeks.get(w);
      if (!s) weeks.set(w, (s = new Set()));
      s.add(str(c.sha));
    }
    const main = authors[0];
    const recentOf = changes.get(path);
    files.push({
      path,
      lines: num(r.lines),
      changes: recentOf ? num(recentOf.commits) : 0,
      ...(main ? { author: main.author, share: main.share } : {}),
    });
    details[path] = {
      cochange: list(co.results).map((x) => ({ path: str(x.path), count: num(x.count), confidence: num(x.confidence) })),
      cochangeCommits: num(co.commits),
      history: commits.slice(0, HISTORY_SHOWN).map((c) => ({ sha: str(c.sha).slice(0, 12), time: str(c.time), author: str(c.author), subject: str(c.subject) })),
      commits: commits.length,
    };
    read++;
    reading();
  });
  files.sort((x, y) => y.lines - x.lines || (x.path < y.path ? -1 : 1));
  // The answers came in whatever order they finished: the page is the same bytes for the same repository.
  const ordered = Object.fromEntries(files.map((f) => [f.path, details[f.path]!]));

  // The co-change graph of the top hotspots: edges weighted by the commits each pair shares.
  const hot = list(recent.results)
    .filter((r) => details[str(r.path)])
    .slice(0, GRAPH_NODES)
    .map((r) => ({ path: str(r.path), changes: num(r.commits), score: num(r.score) }));
  const hotSet = new Set(hot.map((h) => h.path));
  const links: ReportData["graph"]["links"] = [];
  const seen = new Set<string>();
  say(`drawing the co-change graph of the ${hot.length} top hotspots`);
  await each(hot, async (h) => {
    const co = obj(await cochange(h.path, 200).catch(() => ({})));
    for (const x of list(co.results)) {
      const other = str(x.path);
      if (!hotSet.has(other) || other === h.path) continue;
      const key = h.path < other ? `${h.path}\0${other}` : `${other}\0${h.path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      links.push({ source: h.path < other ? h.path : other, target: h.path < other ? other : h.path, count: num(x.count) });
    }
  });
  links.sort((x, y) => y.count - x.count || (x.source < y.source ? -1 : x.source > y.source ? 1 : x.target < y.target ? -1 : 1));

  const window = obj(recent.window);
  return {
    repo: str(everything.repo),
    path: root,
    rev,
    window: { commits: num(window.commits), ...(typeof window.since === "string" ? { since: window.since } : {}) },
    files,
    filesLeftOut: all.length - shown.length,
    ...(cut ? { mostChanged: true } : {}),
    details: ordered,
    graph: { nodes: hot, links },
    // A report on one file: ownership of the folder it sits in.
    folders: folderOwnership(byFile.has(root) ? root.slice(0, Math.max(0, root.lastIndexOf("/"))) : root, byFile),
    weeks: [...weeks].map(([week, shas]) => [week, shas.size] as [string, number]).sort((x, y) => (x[0] < y[0] ? -1 : 1)),
    // The window of all history reaches a shallow clone's end: the page says where it stops.
    ...(everything.historyStops ? { historyStops: everything.historyStops as ReportData["historyStops"] } : {}),
  };
}

/** How the registry's questions take their arguments in this build. */
export function askShape(args: { cochange: Record<string, unknown> }): AskShape {
  return { cochangeTakesList: "paths" in args.cochange };
}

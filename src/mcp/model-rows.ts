/**
 * The model's rows as compact maps and tuples: the people, churn and co-change answers (owners,
 * contributors, hotspots, cochange), files (log's, compare's, a pickaxe's), and every list of
 * commits (history, log, compare, intent, search). JSON's key per field per row cost more than
 * git's `uniq -c` lines and `git log` headers these tasks replace (npm run bench:tasks), so a row
 * says its values and the column names are said once.
 */
import { agentLines, ownFields, peopleSchema } from "./model-agents.ts";
import { z } from "zod";
import { fold, WORD } from "../queries/run/snippet.ts";

type Answer = Record<string, unknown>;
type Row = Record<string, unknown>;

/** contributors' model copy names the folder's top people (the task's facts); the rest are one `truncated`. */
export const TOP_PEOPLE = 3;

// A canonical array index as a key would be moved to the front of a JSON object, losing the order.
export const INDEX_LIKE = /^(?:0|[1-9]\d*)$/;

/** owners: authors as { name: lines } (most first); the name with its email where two share it. */
function owners(out: Answer): void {
  // (A continued page has only its rows.)
  if (!Array.isArray(out.authors)) return;
  const authors = out.authors as Row[];
  const names = authors.map((a) => String(a.author));
  const label = (a: Row) => (names.filter((n) => n === a.author).length > 1 || INDEX_LIKE.test(String(a.author)) ? `${a.author} <${a.email}>` : String(a.author));
  out.authors = Object.fromEntries(authors.map((a) => [label(a), a.lines]));
  // The truck factor's people, when they are not simply the first authors (most often they are).
  const truck = Array.isArray(out.truckAuthors) ? (out.truckAuthors as Row[]).map((a) => String(a.author)) : [];
  const first = new Set(names.slice(0, truck.length));
  if (truck.length <= names.length && truck.every((n) => first.has(n))) delete out.truckAuthors;
  else out.truckAuthors = truck;
  // Without `by` the answer is the path's top authors by design: their cut says nothing new.
  if (out.results === undefined) delete out.truncated;
  agentLines(out);
}

/** contributors: { "Name <email>": [lines, commits, lastChanged] } for the top people, as git shortlog -sne names them; a bot's row ends with { bot: true }. */
function contributors(out: Answer): void {
  const rows = Array.isArray(out.results) ? (out.results as Row[]) : [];
  out.columns = ["lines", "commits", "lastChanged"];
  out.results = Object.fromEntries(rows.slice(0, TOP_PEOPLE).map((r) => [`${r.author} <${r.email}>`, [r.lines, r.commits, String(r.lastChanged).slice(0, 10), ...ownFields(r)]]));
  agentLines(out);
}

/**
 * hotspots: { path: commits } in score order, the paths under the folder asked for; the knee once,
 * not a flag per row. A path that JSON would move to the front (a file named "2024" at the top)
 * keeps the rows as [path, commits] tuples in `results`.
 */
function hotspots(out: Answer, asked: unknown): void {
  const rows = Array.isArray(out.results) ? (out.results as Row[]) : [];
  const prefix = typeof asked === "string" && asked !== "" ? asked.replace(/\/*$/, "/") : "";
  const under = prefix !== "" && rows.length > 0 && rows.every((r) => String(r.path).startsWith(prefix) && !INDEX_LIKE.test(String(r.path).slice(prefix.length)));
  // hotspot is commits > knee: the fewest commits of a flagged row, less one, says it for every row.
  const hot = rows.filter((r) => r.hotspot === true).map((r) => Number(r.commits));
  if (hot.length) out.hotspotsAbove = Math.min(...hot) - 1;
  if (under) out.under = prefix;
  const pairs = rows.map((r) => [under ? String(r.path).slice(prefix.length) : String(r.path), r.commits] as const);
  delete out.results;
  if (pairs.some(([p]) => INDEX_LIKE.test(p))) out.results = pairs;
  else out.commits = Object.fromEntries(pairs);
}

/** cochange: { path: [score, count] } (best first: the rows are ranked by score), when no row says more (`with`, for several paths); from their common folder (`under`) where that is shorter. */
function cochange(out: Answer): void {
  const rows = Array.isArray(out.results) ? (out.results as Row[]) : [];
  if (rows.some((r) => Object.keys(r).some((k) => k !== "path" && k !== "score" && k !== "count")) || rows.some((r) => INDEX_LIKE.test(String(r.path)))) return;
  // The folder all of them are in, said once where that is shorter (a file's partners are mostly its neighbours).
  const under = commonFolder(rows.map((r) => String(r.path)));
  if (under.length * (rows.length - 1) >= 20 && rows.every((r) => !INDEX_LIKE.test(String(r.path).slice(under.length)))) out.under = under;
  out.columns = ["score", "count"];
  out.results = Object.fromEntries(rows.map((r) => [String(r.path).slice(typeof out.under === "string" ? under.length : 0), [r.score, r.count]]));
}

/** The longest folder ("a/b/") every path is in; "" when none. */
function commonFolder(paths: string[]): string {
  if (paths.length === 0) return "";
  let dir = paths[0]!.slice(0, paths[0]!.lastIndexOf("/") + 1);
  while (dir && !paths.every((p) => p.startsWith(dir))) dir = dir.slice(0, dir.slice(0, -1).lastIndexOf("/") + 1);
  return dir;
}

/** The words of a message search's snippet, without its marks and cuts. */
const bare = (s: string) => s.replace(/[«»]/g, "").replace(/^…|…$/g, "").replace(/\s+/g, " ").trim();

/** Whether a word the snippet marks («word») is a word of the subject: the subject shows why the commit matched. */
function matchesIn(snippet: string, subject: string): boolean {
  const words = new Set((subject.match(WORD) ?? []).map(fold));
  return [...snippet.matchAll(/«([^»]*)»/g)].some((m) => words.has(fold(m[1]!)));
}

/** search: a commit's snippet says nothing its subject does not when the match is in the subject; a pickaxe's files as { path: [added, removed] }, or none where the oldest's diff says them. */
function search(out: Answer): void {
  if (!Array.isArray(out.results)) return;
  // The oldest commit's diff names the files it added the text in: a lone row's files that only added it say no more.
  const diff = out.diff && typeof out.diff === "object" ? Object.keys(out.diff) : [];
  const said = (files: Row[]) => (out.results as Row[]).length === 1 && files.every((f) => diff.includes(String(f.path)) && f.removed === 0);
  out.results = (out.results as Row[]).map(({ files: f, ...r }) => {
    const files = f === undefined || (Array.isArray(f) && said(f as Row[])) ? {} : { files: counts(f, "added", "removed") };
    if (typeof r.snippet !== "string" || typeof r.subject !== "string" || !(r.subject.replace(/\s+/g, " ").includes(bare(r.snippet)) || matchesIn(r.snippet, r.subject))) return { ...r, ...files };
    const { snippet: _s, ...rest } = r;
    return { ...rest, ...files };
  });
}

/** Files as { path: [a, b] } of two counts, when no file has another field or a path JSON would reorder; else as they were. */
function counts(files: unknown, a: string, b: string): unknown {
  if (!Array.isArray(files) || files.some((f: Row) => Object.keys(f).some((k) => k !== "path" && k !== a && k !== b) || typeof f[a] !== "number" || typeof f[b] !== "number" || INDEX_LIKE.test(String(f.path)))) return files;
  return Object.fromEntries(files.map((f: Row) => [f.path, [f[a], f[b]]]));
}

/**
 * Files as { path: "additions deletions status? oldPath?" } (git diff --numstat's order, a binary
 * file's counts `-`): an added, deleted or renamed file says so after its counts (a row of keys per
 * file was twice the tokens of git diff --stat; "12 3" is two tokens fewer than [12,3]). Rows as
 * they were where a path would be reordered.
 */
function numstat(files: unknown): unknown {
  if (!Array.isArray(files) || files.some((f: Row) => INDEX_LIKE.test(String(f.path)))) return files;
  return Object.fromEntries(files.map((f: Row) => [f.path, numstatOf(f)]));
}

/** A file's counts as git diff --numstat orders them, "+ - status? oldPath? ...more?" (- for a binary file's). */
export function numstatOf(f: Row, ...more: (string | undefined)[]): string {
  return [f.additions ?? "-", f.deletions ?? "-", f.status, f.oldPath, ...more].filter((v) => v !== undefined).join(" ");
}

/** A numstat value as [additions, deletions, status?, oldPath?] again (counts null for a binary file). */
function unNumstat(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const m = /^(\d+|-) (\d+|-)(?: (\S+))?(?: (.*))?$/.exec(v);
  if (!m) return v;
  const n = (s: string) => (s === "-" ? null : Number(s));
  return [n(m[1]!), n(m[2]!), ...(m[3] !== undefined ? [m[3]] : []), ...(m[4] !== undefined ? [m[4]] : [])];
}

/**
 * A branch's files by folder: { "src/utils/": { "url.ts": [45, 3] } }, folders in the order their
 * first file comes (a path's folder said once was a quarter of a 300-file branch's tokens); by path
 * where no folder holds two of them (a folder's braces cost more than its name said twice).
 */
function byFolder(files: unknown): unknown {
  if (Array.isArray(files) || !files || typeof files !== "object") return files;
  const out: Record<string, Record<string, unknown>> = {};
  for (const [path, v] of Object.entries(files)) {
    const i = path.lastIndexOf("/") + 1;
    if (INDEX_LIKE.test(path.slice(i))) return files;
    (out[path.slice(0, i)] ??= {})[path.slice(i)] = v;
  }
  return Object.values(out).some((names) => Object.keys(names).length > 1) ? out : files;
}

/** The folder every file of every commit is under, when log was asked about one folder ("" otherwise). */
function folderOf(commits: Row[], asked: unknown): string {
  if (!Array.isArray(asked) || asked.length !== 1 || typeof asked[0] !== "string" || asked[0] === "") return "";
  const prefix = asked[0].replace(/\/*$/, "/");
  const paths = commits.flatMap((c) => (Array.isArray(c.files) ? (c.files as Row[]).map((f) => String(f.path)) : []));
  return paths.length > 0 && paths.every((p) => p.startsWith(prefix) && !INDEX_LIKE.test(p.slice(prefix.length))) ? prefix : "";
}

/** log: each commit's files, said from the folder asked about (`under`) when they are all in it. */
function logFiles(out: Answer, asked: unknown): void {
  if (!Array.isArray(out.commits)) return;
  const under = folderOf(out.commits as Row[], asked);
  if (under) {
    // (said before the rows it is about)
    const rest = { ...out };
    for (const k of Object.keys(out)) delete out[k];
    Object.assign(out, { under }, rest);
  }
  const from = (files: Row[]) => files.map((f) => ({ ...f, path: String(f.path).slice(under.length) }));
  out.commits = (out.commits as Row[]).map((c) => (c && Array.isArray(c.files) ? { ...c, files: numstat(from(c.files as Row[])) } : c));
}

/** The lists of commits a question answers with: each row as a tuple (a key per field per row was a third of a commit's tokens). */
const TUPLE_LISTS: Record<string, string> = { history: "commits", log: "commits", compare: "commits", intent: "commits", search: "results", branches: "branches", suspects: "suspects" };

/**
 * A list of two rows or more as tuples: `columns` names, once, the fields every row has, in
 * their order; a row's fields of its own (a rename's status, a merge) follow in an object.
 */
function tuples(out: Answer, list: string): void {
  const rows = out[list];
  if (!Array.isArray(rows) || rows.length < 2 || !rows.every((r) => r && typeof r === "object" && !Array.isArray(r))) return;
  const columns = Object.keys(rows[0] as Row).filter((k) => (rows as Row[]).every((r) => k in r));
  const shared = new Set(columns);
  const tuples = (rows as Row[]).map((r) => {
    const own = Object.entries(r).filter(([k]) => !shared.has(k));
    const values = columns.map((k) => r[k]);
    return own.length ? [...values, Object.fromEntries(own)] : values;
  });
  // The names just before the rows they name, where the list was.
  const fields = Object.entries(out);
  for (const [k] of fields) delete out[k];
  for (const [k, v] of fields) {
    if (k === list) Object.assign(out, { columns, [list]: tuples });
    else out[k] = v;
  }
}

/** The rows of a model's copy as objects again, and files by folder as { path: counts } (tests and the task benchmark read them so). */
export function expandTuples(answer: unknown): unknown {
  if (!answer || typeof answer !== "object" || Array.isArray(answer)) return answer;
  let a = answer as Answer;
  const files = a.files;
  if (files && typeof files === "object" && !Array.isArray(files) && Object.values(files).every((v) => v && typeof v === "object" && !Array.isArray(v)))
    a = { ...a, files: Object.fromEntries(Object.entries(files as Record<string, Answer>).flatMap(([dir, names]) => Object.entries(names).map(([name, v]) => [dir + name, unNumstat(v)]))) };
  // (compare's files by path, where no folder held two)
  else if (files && typeof files === "object" && !Array.isArray(files) && "commits" in a && Object.values(files).every((v) => typeof v === "string"))
    a = { ...a, files: Object.fromEntries(Object.entries(files as Record<string, string>).map(([path, v]) => [path, unNumstat(v)])) };
  // cochange's rows as { path: [score, count] }, from the folder they are under.
  if (Array.isArray(a.columns) && a.columns.join() === "score,count" && a.results && typeof a.results === "object" && !Array.isArray(a.results)) {
    const { under, columns: _c, ...rest } = a;
    const prefix = typeof under === "string" ? under : "";
    return { ...rest, results: Object.entries(a.results as Record<string, [number, number]>).map(([p, [score, count]]) => ({ path: prefix + p, score, count })) };
  }
  const columns = a.columns;
  if (!Array.isArray(columns)) return commitFiles(a);
  const list = ["commits", "results", "branches", "suspects"].find((k) => Array.isArray(a[k]) && (a[k] as unknown[]).every(Array.isArray));
  if (!list) return a;
  const { columns: _c, ...rest } = a;
  rest[list] = (a[list] as unknown[][]).map((t) => {
    const own = t.length > columns.length ? (t[columns.length] as Row) : {};
    return { ...Object.fromEntries(columns.map((k, i) => [k, t[i]])), ...own };
  });
  return commitFiles(rest);
}

/** log's files as { path: [additions, deletions, …] } again, with the folder they are under. */
function commitFiles(a: Answer): Answer {
  const { under, ...rest } = a;
  if (!Array.isArray(a.commits)) return a;
  const prefix = typeof under === "string" ? under : "";
  const files = (f: unknown) => (f && typeof f === "object" && !Array.isArray(f) ? Object.fromEntries(Object.entries(f).map(([p, v]) => [prefix + p, unNumstat(v)])) : f);
  return { ...rest, commits: (a.commits as Row[]).map((c) => (c && typeof c === "object" && "files" in c ? { ...c, files: files(c.files) } : c)) };
}

/** Reshapes the model's copy in place; `asked` is the answer's own path (the model's copy leaves it out). */
export function compactRows(question: string, out: Answer, asked: unknown): void {
  compactLists(question, out, asked);
  const list = TUPLE_LISTS[question];
  if (list) tuples(out, list);
}

function compactLists(question: string, out: Answer, asked: unknown): void {
  if (question === "owners") owners(out);
  else if (question === "contributors") contributors(out);
  else if (question === "hotspots") hotspots(out, asked);
  else if (question === "cochange") cochange(out);
  else if (question === "search") search(out);
  else if (question === "log") logFiles(out, asked);
  else if (question === "compare" && Array.isArray(out.files)) out.files = byFolder(numstat(out.files));
}

const numstatSchema = z.record(z.string(), z.string()).describe('"additions deletions status? oldPath?" by path (counts - for a binary file)');

/** The output schema of those rows. */
export function compactSchema(question: string, out: z.ZodObject): z.ZodObject {
  const shaped = compactListSchema(question, out);
  const list = TUPLE_LISTS[question];
  const rows = list ? shaped.shape[list] : undefined;
  if (!list || !rows) return shaped;
  const tuple = z.array(z.array(z.unknown())).describe("rows as [the values of columns, in order, then an object of a row's other fields when it has any]");
  const either = rows instanceof z.ZodOptional ? z.union([rows.unwrap() as z.ZodType, tuple]).optional() : z.union([rows as z.ZodType, tuple]);
  return shaped.extend({ columns: z.array(z.string()).optional().describe(`the names of each ${list} row's values, when the rows are tuples`), [list]: either });
}

function compactListSchema(question: string, out: z.ZodObject): z.ZodObject {
  const columns = z.array(z.string()).describe("the names of each row's values, in order");
  const people = peopleSchema(question, out, columns);
  if (people) return people;
  if (question === "hotspots")
    return out.extend({
      under: z.string().optional().describe("the folder the paths are under"),
      hotspotsAbove: z.number().int().optional().describe("files with more commits are the hotspots"),
      commits: z.record(z.string(), z.number().int()).optional().describe("commits by path, by churn score"),
      results: z.array(z.tuple([z.string(), z.number().int()])).optional().describe("[path, commits], when a path is a number"),
    });
  const commits = out.shape.commits;
  if (question === "log" && commits instanceof z.ZodArray && commits.element instanceof z.ZodObject && commits.element.shape.files instanceof z.ZodArray) {
    const files = z.union([commits.element.shape.files, numstatSchema]);
    return out.extend({ under: z.string().optional().describe("the folder the files are under"), commits: z.array(commits.element.extend({ files })) });
  }
  if (question === "compare" && out.shape.files instanceof z.ZodOptional)
    return out.extend({ files: z.union([out.shape.files.unwrap() as z.ZodType, numstatSchema, z.record(z.string(), numstatSchema).describe("by folder, then file name")]).optional() });
  const results = out.shape.results;
  if (question === "search" && results instanceof z.ZodArray && results.element instanceof z.ZodObject && results.element.shape.files instanceof z.ZodOptional) {
    const byPath = z.record(z.string(), z.tuple([z.number().int(), z.number().int()])).describe("[added, removed] occurrences by path");
    return out.extend({ results: z.array(results.element.extend({ files: z.union([results.element.shape.files.unwrap() as z.ZodType, byPath]).optional() })) });
  }
  if (question === "cochange" && out.shape.results instanceof z.ZodArray)
    return out.extend({
      under: z.string().optional().describe("the folder the paths are in"),
      columns: z.array(z.string()).optional().describe("the names of each row's values"),
      results: z.union([out.shape.results, z.record(z.string(), z.tuple([z.number(), z.number().int()]))]).describe("[score, commits shared] by path, best first, when no row says more"),
    });
  return out;
}

/**
 * The text copy of an answer (MCP `content`), said from the model's JSON copy (model-view.ts), so
 * the two hold the same facts, the same continue token and the same hints: Gemini CLI, opencode
 * and Zed read only the text, Claude Code, Codex and VS Code only the JSON. Lean as the JSON: a
 * field as `name value` and a list or a long text under its name alone (a colon was a token a
 * line), a list's column names once (`commits (sha time additions author subject)`) and a row a line, the values without spaces first, apart by a space, then those with
 * spaces, apart by tabs; a map's entries as `key value`; a long text (a diff, a message) as its own
 * lines under its row or field.
 */

type Row = Record<string, unknown>;

const isScalar = (v: unknown) => v === null || typeof v !== "object";
const say = (v: unknown) => (v === null ? "-" : v === "" ? '""' : String(v));
const multiline = (v: unknown) => typeof v === "string" && v.includes("\n");
const blank = (s: string) => s === "" || /\s/.test(s);

/** An array of scalars, or of such arrays, in one cell: `20,21;24,40`. */
function inline(v: unknown): string | undefined {
  if (isScalar(v)) return multiline(v) ? undefined : say(v);
  if (!Array.isArray(v)) return undefined;
  if (v.length === 0) return "-";
  if (v.every(isScalar)) return v.some(multiline) ? undefined : v.map(say).join(",");
  if (v.every((x) => Array.isArray(x) && x.every(isScalar))) return (v as unknown[][]).map((x) => x.map(say).join(",")).join(";");
  return undefined;
}

/** A row's own fields (a rename's status, a merge): `merge=true`, or undefined when one is not one line. */
function ownFields(o: Row): string | undefined {
  // (a row's own fields come after its plain values: a space in one would end them)
  const parts = Object.entries(o).map(([k, v]) => [k, inline(v)] as const);
  return parts.every(([, v]) => v !== undefined && !blank(v)) ? parts.map(([k, v]) => `${k}=${v}`).join(" ") : undefined;
}

/** A long text's lines, `ind` in (an empty line stays empty). */
const indented = (text: string, ind: string) => text.split("\n").map((l) => (l === "" ? l : ind + l));

/**
 * How a list's rows are said: the columns whose values are one line and have no space, apart by a
 * space; then those with spaces, apart by tabs (a tab between every value was a token each); then
 * under the row the values that are not one line.
 */
function layout(tuples: unknown[][], width: number, columns?: string[]) {
  const block = new Set<number>();
  const spaced = new Set<number>();
  for (const t of tuples)
    t.forEach((v, i) => {
      if (i >= width) return;
      const one = inline(v);
      if (one === undefined) block.add(i);
      else if (blank(one)) spaced.add(i);
    });
  const plain = [...Array(width).keys()].filter((i) => !block.has(i) && !spaced.has(i));
  const apart = [...spaced].filter((i) => !block.has(i)).sort((a, b) => a - b);
  return {
    names: columns && [...plain, ...apart, ...block].map((i) => columns[i]),
    line(t: unknown[], extra?: string): string {
      const head = [...plain.filter((i) => i < t.length).map((i) => inline(t[i])!), ...(extra !== undefined ? [extra] : [])].join(" ");
      const tail = apart.filter((i) => i < t.length).map((i) => inline(t[i])!).join("\t");
      return head === "" || tail === "" ? head + tail : `${head} ${tail}`;
    },
    block: [...block],
  };
}

/** Rows (tuples, or objects made tuples by the keys they all have) under their column names. */
function rows(out: string[], key: string, list: unknown[], ind: string, given?: unknown[]): void {
  let columns = given?.map(String);
  let tuples = list as unknown[][];
  if (list.every((r) => r && typeof r === "object" && !Array.isArray(r))) {
    const objs = list as Row[];
    columns = Object.keys(objs[0]!).filter((k) => objs.every((r) => k in r));
    const shared = new Set(columns);
    tuples = objs.map((r) => {
      const own = Object.entries(r).filter(([k]) => !shared.has(k));
      return [...columns!.map((k) => r[k]), ...(own.length ? [Object.fromEntries(own)] : [])];
    });
  }
  const width = columns?.length ?? Math.max(...tuples.map((t) => t.length));
  const l = layout(tuples, width, columns);
  out.push(`${ind}${key}${l.names ? ` (${l.names.join(" ")})` : ""}`);
  for (const t of tuples) {
    const own = t.length > width && t[width] && typeof t[width] === "object" && !Array.isArray(t[width]) ? (t[width] as Row) : undefined;
    const extra = own ? ownFields(own) : undefined;
    out.push(ind + l.line(t, extra));
    for (const i of l.block) if (i < t.length) value(out, t[i], ind);
    if (own && extra === undefined) for (const [k, v] of Object.entries(own)) field(out, k, v, ind + " ");
  }
}

/** A value under its row or field: a long text as lines, a map's entries, anything else as a field of its own. */
function value(out: string[], v: unknown, ind: string): void {
  if (typeof v === "string") out.push(...indented(v, ind));
  else if (v && typeof v === "object" && !Array.isArray(v)) entries(out, v as Row, ind + " ");
  else out.push(ind + (inline(v) ?? JSON.stringify(v)));
}

const oneLine = (v: unknown) => isScalar(v) && !multiline(v);
const isRow = (v: unknown): v is Row => !!v && typeof v === "object" && !Array.isArray(v);
/** A tuple's own fields: an object as its last element (a bot, a commit's provenance), or undefined. */
const ownOf = (t: unknown[]) => (t.length > 1 && isRow(t[t.length - 1]) ? (t[t.length - 1] as Row) : undefined);
const valuesOf = (t: unknown[]) => (ownOf(t) ? t.slice(0, -1) : t);

/** Whether a map's value is said by words without spaces, as many for every entry: then a key with spaces ends where they begin, counted from the line's end. */
function fixedTail(values: unknown[]): boolean {
  const width = (v: unknown) => (Array.isArray(v) ? v.length : 1);
  const words = (v: unknown) => (Array.isArray(v) ? v : [v]).every((x) => oneLine(x) && !blank(say(x)));
  return values.length > 0 && values.every((v) => words(v) && width(v) === width(values[0]));
}

/** A map's entries, one a line: `path 12`, `Ann Lee 40 3 2024-05-01` (a colon after a key with spaces only where its values have spaces, differ in number or end in a row's own fields); a nested map or a long text under its key. */
function entries(out: string[], o: Row, ind: string, columns?: unknown[]): void {
  const keys = Object.keys(o);
  const colon = keys.some(blank) && !fixedTail(Object.values(o)) ? ":" : "";
  const tuples = Object.values(o).filter((v) => Array.isArray(v) && v.length > 0 && valuesOf(v).every(oneLine)) as unknown[][];
  const l = layout(tuples.map(valuesOf), Math.max(0, ...tuples.map((t) => valuesOf(t).length)), columns?.map(String));
  for (const k of keys) {
    const v = o[k];
    if (oneLine(v)) out.push(`${ind}${k}${colon} ${say(v)}`);
    else if (tuples.includes(v as unknown[])) {
      const own = ownOf(v as unknown[]);
      const extra = own ? ownFields(own) : undefined;
      out.push(`${ind}${k}${colon} ${l.line(valuesOf(v as unknown[]), extra)}`);
      if (own && extra === undefined) for (const [f, x] of Object.entries(own)) field(out, f, x, ind + "  ");
    } else field(out, k, v, ind);
  }
}

/** One field: `name: value`, or its name and its lines under it. */
function field(out: string[], key: string, v: unknown, ind: string, columns?: unknown[]): void {
  if (isScalar(v)) {
    if (multiline(v)) out.push(`${ind}${key}`, ...indented(v as string, ind));
    // (a field's name is one word: the value is the rest of the line)
    else out.push(`${ind}${key} ${say(v)}`);
    return;
  }
  const empty = Array.isArray(v) ? v.length === 0 : Object.keys(v as Row).length === 0;
  if (empty) return void out.push(`${ind}${key} none`);
  if (Array.isArray(v)) {
    if (v.every(isScalar)) {
      const s = v.map(say);
      if (s.some(blank) || v.some(multiline)) out.push(`${ind}${key}`, ...s.flatMap((x) => indented(x, ind + " ")));
      else out.push(`${ind}${key} ${s.join(" ")}`);
      return;
    }
    return rows(out, key, v, ind, columns);
  }
  // A map of tuples (contributors' people) says their column names, in the order its rows say them.
  const tuples = Object.values(v as Row).filter(Array.isArray) as unknown[][];
  const names = columns && layout(tuples, columns.length, columns.map(String)).names;
  out.push(`${ind}${key}${names ? ` (${names.join(" ")})` : ""}`);
  entries(out, v as Row, ind + " ", columns);
}

/** The list `columns` names: the first of commits and results whose rows are tuples. */
function columnsOf(view: Row): string | undefined {
  if (!Array.isArray(view.columns)) return undefined;
  return ["commits", "results"].find((k) => {
    const v = view[k];
    return Array.isArray(v) ? v.every(Array.isArray) : !!v && typeof v === "object" && Object.values(v).every(Array.isArray);
  });
}

/** The model's JSON copy said as lines: every key and value of it, nothing else. */
export function textCopy(view: Row): string {
  const out: string[] = [];
  const list = columnsOf(view);
  for (const [k, v] of Object.entries(view)) {
    if (k === "columns" && list) continue;
    field(out, k, v, "", k === list ? (view.columns as unknown[]) : undefined);
  }
  return out.join("\n");
}

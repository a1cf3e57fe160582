/** The frames of a stack trace or test output (JavaScript, TypeScript, Python, Go, Rust, Java, and path:line generally) resolved to the repository's files; frames outside it are left out. */
import { isAbsolute, relative } from "node:path";

export interface Frame {
  path: string;
  line: number;
}

const PATTERNS = [
  // Python: File "app/x.py", line 12
  /File "([^"]+)", line (\d+)/g,
  // Java, Kotlin: at a.b.C.m(C.java:12)
  /\(([\w$.-]+\.(?:java|kt|scala|groovy)):(\d+)\)/g,
  // JavaScript, Go, Rust, C, Ruby and test runners: path:line[:col]
  /((?:file:\/\/)?(?:[A-Za-z]:)?[\w@.~\/\\-]*[\w-]\.[A-Za-z][\w]{0,5}):(\d+)(?::\d+)?/g,
];

/** At most this many frames: the top of a trace says most. */
const MAX_FRAMES = 20;

/** The trace's frames in order, each file:line once, resolved against the repository's files (`tree`: every path at HEAD). */
export function framesOf(trace: string, root: string, tree: string[]): Frame[] {
  const found: { at: number; file: string; line: number }[] = [];
  for (const re of PATTERNS) for (const m of trace.matchAll(re)) found.push({ at: m.index!, file: m[1]!, line: Number(m[2]) });
  found.sort((a, b) => a.at - b.at);
  const bySuffix = new Map<string, string[]>();
  const index = (key: string, p: string) => bySuffix.set(key, [...(bySuffix.get(key) ?? []), p]);
  const inTree = new Set(tree);
  for (const p of tree) {
    const parts = p.split("/");
    for (let i = 1; i < parts.length; i++) index(parts.slice(i).join("/"), p);
  }
  const out: Frame[] = [];
  const seen = new Set<string>();
  for (const f of found) {
    const path = resolveFrame(f.file, root, inTree, bySuffix);
    const key = `${path}:${f.line}`;
    if (!path || f.line < 1 || seen.has(key)) continue;
    seen.add(key);
    out.push({ path, line: f.line });
    if (out.length === MAX_FRAMES) break;
  }
  return out;
}

function resolveFrame(raw: string, root: string, tree: Set<string>, bySuffix: Map<string, string[]>): string | undefined {
  let file = raw.replace(/^file:\/\//, "").replace(/\\/g, "/");
  if (/(^|\/)node_modules\//.test(file)) return undefined;
  if (isAbsolute(file)) {
    const rel = relative(root, file);
    // Outside the repository (the runtime, a library installed elsewhere).
    if (rel.startsWith("..") || isAbsolute(rel)) return undefined;
    file = rel;
  }
  file = file.replace(/^\.\//, "");
  if (tree.has(file)) return file;
  // A path from another checkout or a build folder: the one file of the repository it ends with.
  const parts = file.split("/");
  for (let i = 0; i < parts.length; i++) {
    const hit = bySuffix.get(parts.slice(i).join("/"));
    if (hit?.length === 1) return hit[0];
    if (hit && hit.length > 1) return undefined;
  }
  return undefined;
}

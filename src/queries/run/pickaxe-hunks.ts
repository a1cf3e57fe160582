/**
 * What the oldest commit of a code search added: for each file where the text's count grew, the
 * lines of `git show SHA -- FILE` that add it, with a few lines around them, as excerpts of git's
 * own hunks (their @@ headers counted for the lines shown). "When was this introduced" then needs
 * no second call to read the commit's whole diff.
 */
import { gitText } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";
import type { SearchFile } from "../search.ts";

/** Lines shown around the added lines that hold the text, fewer where they are many. */
const CONTEXTS = [2, 1, 0];
/** Lines shown in all (the budget: the definition and a little of its body, not the whole file)… */
const MAX_LINES = 16;
/** …but every added line that holds the text, up to this many. */
const MAX_HITS = 60;
/** Files shown: where the text was added, most occurrences first. */
const MAX_FILES = 3;

const matches = (line: string, find: string | RegExp) => (typeof find === "string" ? line.includes(find) : (find.lastIndex = 0, find.test(line)));

/** Lines of a hunk shown together: where they start on each side, and the lines as git prints them. */
interface Excerpt {
  oldLine: number;
  newLine: number;
  lines: string[];
}

/** The excerpt as git prints a hunk: its @@ header counted for the lines shown. */
function hunkText(e: Excerpt): string {
  const olds = e.lines.filter((l) => !l.startsWith("+")).length;
  const news = e.lines.filter((l) => !l.startsWith("-")).length;
  return [`@@ -${olds ? e.oldLine : e.oldLine - 1},${olds} +${news ? e.newLine : e.newLine - 1},${news} @@`, ...e.lines].join("\n");
}

/** One hunk's excerpts around its added lines holding `find`. */
function excerpts(header: string, body: string[], find: string | RegExp, context: number): Excerpt[] {
  const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(header);
  if (!m) return [];
  const hits = body.flatMap((l, i) => (l.startsWith("+") && matches(l.slice(1), find) ? [i] : []));
  const out: Excerpt[] = [];
  for (let k = 0; k < hits.length; ) {
    const from = Math.max(0, hits[k]! - context);
    let to = Math.min(body.length - 1, hits[k]! + context);
    // Windows that touch are one excerpt.
    while (++k < hits.length && hits[k]! - context <= to + 1) to = Math.min(body.length - 1, hits[k]! + context);
    // A side of no lines names the line before it (git's -0,0 of a new file).
    let oldLine = Number(m[1]) + (m[2] === "0" ? 1 : 0);
    let newLine = Number(m[3]) + (m[4] === "0" ? 1 : 0);
    for (const l of body.slice(0, from)) {
      if (!l.startsWith("+")) oldLine++;
      if (!l.startsWith("-")) newLine++;
    }
    out.push({ oldLine, newLine, lines: body.slice(from, to + 1) });
  }
  return out;
}

/** The excerpts of one file's patch (from `git show`'s output), in order. */
function fileExcerpts(patch: string, find: string | RegExp, context: number): Excerpt[] {
  const out: Excerpt[] = [];
  const lines = patch.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith("@@")) continue;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && !lines[j]!.startsWith("@@") && !lines[j]!.startsWith("diff --git "); j++) if (lines[j] !== "\\ No newline at end of file") body.push(lines[j]!);
    // (split leaves an empty string after the patch's last newline: a context line is never empty, it is " ")
    out.push(...excerpts(lines[i]!, body.filter((l) => l !== ""), find, context));
  }
  return out;
}

/** { path: the lines that add the text, as hunks } for the files of `sha` where its count grew; undefined when none shows it (binary, a merge). */
export async function addedHunks(ctx: QueryContext, sha: string, files: SearchFile[], find: string | RegExp): Promise<Record<string, string> | undefined> {
  const grew = files.filter((f) => f.added > f.removed).sort((a, b) => b.added - b.removed - (a.added - a.removed)).slice(0, MAX_FILES);
  const patches = await Promise.all(grew.map((f) => gitText(["show", "--format=", "-p", "-M", "--no-ext-diff", "--no-textconv", "--no-color", sha, "--", f.path], ctx.index.git)));
  // The most context that fits the budget; with none, every line that adds the text (to MAX_HITS).
  let shown: Excerpt[][] = [];
  for (const context of CONTEXTS) {
    shown = patches.map((p) => fileExcerpts(p, find, context));
    if (shown.flat().reduce((n, e) => n + e.lines.length, 0) <= MAX_LINES) break;
  }
  const out: Record<string, string> = {};
  let left = MAX_HITS;
  for (const [i, f] of grew.entries()) {
    const hunks: string[] = [];
    for (const e of shown[i]!) {
      if (left <= 0) break;
      hunks.push(hunkText({ ...e, lines: e.lines.slice(0, left) }));
      left -= Math.min(left, e.lines.length);
    }
    if (hunks.length) out[f.path] = hunks.join("\n");
  }
  return Object.keys(out).length ? out : undefined;
}

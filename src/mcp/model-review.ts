/**
 * review's model copy: each changed file as git diff --numstat says it, by path (`"12 3"`, `"12 3 R
 * old/path"`, `"- -"` for a binary file, ` conflict` at the end of one), the lines a file's change
 * rewrites beside it by path, a commit's day, and nothing the rest says again: no count of files
 * that are all listed, no `with` that names every changed file (its `why` says so). (An empty `fixes`
 * stays: nothing found is said, never left out.)
 */
import { z } from "zod";
import { INDEX_LIKE, numstatOf } from "./model-rows.ts";

type Answer = Record<string, unknown>;
type Row = Record<string, unknown>;

export function leanReview(out: Answer): void {
  const files = Array.isArray(out.files) ? (out.files as Row[]) : undefined;
  if (files && !files.some((f) => INDEX_LIKE.test(String(f.path)))) {
    const rewrites = files.filter((f) => f.rewrites !== undefined).map((f) => [f.path, f.rewrites] as const);
    // Lines from before a shallow clone's history, by path as rewrites are.
    const before = files.filter((f) => f.beforeHistory !== undefined).map((f) => [f.path, f.beforeHistory] as const);
    out.files = Object.fromEntries(files.map((f) => [f.path, numstatOf(f, f.conflict ? "conflict" : undefined)]));
    // Right after the files.
    if (rewrites.length || before.length) {
      const fields = Object.entries(out);
      for (const [k] of fields) delete out[k];
      for (const [k, v] of fields) {
        out[k] = v;
        if (k === "files" && rewrites.length) out.rewrites = Object.fromEntries(rewrites);
        if (k === "files" && before.length) out.beforeHistory = Object.fromEntries(before);
      }
    }
  }
  if (files && out.filesTotal === files.length) delete out.filesTotal;
  if (out.commits && typeof out.commits === "object" && !Array.isArray(out.commits))
    out.commits = Object.fromEntries(Object.entries(out.commits as Record<string, unknown>).map(([sha, c]) => [sha, Array.isArray(c) ? c.map((v, i) => (i === 1 && typeof v === "string" ? v.slice(0, 10) : v)) : c]));
  const changed = files?.length ?? 0;
  if (Array.isArray(out.missing))
    out.missing = (out.missing as Row[]).map((m) => {
      if (!Array.isArray(m.with) || m.withTotal !== undefined || m.with.length !== changed || changed === 0) return m;
      const { with: _all, ...rest } = m;
      return rest;
    });
}

/** The output schema of that copy. */
export function leanReviewSchema(out: z.ZodObject): z.ZodObject {
  const optional = (s: z.ZodObject, keys: string[]) => s.extend(Object.fromEntries(keys.filter((k) => k in s.shape).map((k) => [k, (s.shape[k] as z.ZodType).optional()])));
  const files = out.shape.files as z.ZodArray<z.ZodObject>;
  const missing = out.shape.missing as z.ZodArray<z.ZodObject>;
  return optional(out, ["filesTotal"]).extend({
    files: z.union([files, z.record(z.string(), z.string()).describe('"additions deletions status? oldPath? conflict?" by path, in git\'s order (- for a binary file)')]),
    rewrites: z.record(z.string(), files.element.shape.rewrites as z.ZodType).optional().describe("by path: the lines of the old side it rewrites, by the commit that last changed them"),
    beforeHistory: z.record(z.string(), files.element.shape.beforeHistory as z.ZodType).optional(),
    missing: z.array(missing.element.extend({ with: (missing.element.shape.with as z.ZodType).optional().describe("the changed files it goes with; left out: all of them") })),
  });
}

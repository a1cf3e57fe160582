/** Gathers what the ranking reads: the blame of the asked lines (seeing through mass and cosmetic commits), the commits that removed what a fix restores, their facts, the last release. */
import { gitMaybe } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";
import { blameAsks, type Ask } from "./suspect-blame.ts";
import { factsOf, lastRelease, removedBy } from "./suspect-facts.ts";
import type { FixFile } from "./suspect-fix.ts";
import { isNoisy, type Evidence } from "./suspect-rank.ts";

/** Added lines looked up with git log -S: the longest few (each is a walk of the file's history). */
const MAX_RESTORES = 3;
const MAX_FILES = 30;

/** The asks and the lines worth looking up, from what a fix changes and the old side's files. */
export async function fixAsks(ctx: QueryContext, rev: string, files: FixFile[]): Promise<{ asks: Ask[]; restores: { path: string; text: string }[] }> {
  const asks: Ask[] = [];
  const candidates: { path: string; text: string }[] = [];
  await Promise.all(
    files.slice(0, MAX_FILES).map(async (f) => {
      if (f.isNew) return;
      const content = (await gitMaybe(["cat-file", "-p", `${rev}:${f.path}`], ctx.index.git))?.toString("utf8");
      if (content === undefined) return;
      const n = content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
      const lines = new Map<number, number>();
      for (const [a, b] of f.deleted) for (let i = a; i <= b; i++) lines.set(i, 1);
      const near = new Set<number>();
      for (const p of f.insertedAfter) for (let i = p - 1; i <= p + 2; i++) if (i >= 1 && i <= n && !lines.has(i)) near.add(i);
      asks.push({ path: f.path, lines, near });
      // A line the fix adds that the old side does not have may be one a commit removed.
      for (const text of new Set(f.added)) if (text.length >= 8 && /[A-Za-z]/.test(text) && !content.includes(text)) candidates.push({ path: f.path, text });
    }),
  );
  candidates.sort((a, b) => b.text.length - a.text.length || (a.path < b.path ? -1 : 1));
  return { asks, restores: candidates.slice(0, MAX_RESTORES) };
}

export async function gather(ctx: QueryContext, rev: string, asks: Ask[], restoreAsks: { path: string; text: string }[]): Promise<Evidence> {
  const [first, removals, release] = await Promise.all([
    blameAsks(ctx, rev, asks, { whitespace: true, ignore: [] }),
    Promise.all(restoreAsks.map(async (r) => ({ ...r, sha: await removedBy(ctx, rev, r.path, r.text) }))),
    lastRelease(ctx, rev),
  ]);
  let blamed = first;
  let facts = await factsOf(ctx, [...first.keys()]);
  // Mass and cosmetic commits moved the lines rather than wrote them: blame again seeing through them.
  const noisy = [...first.keys()].filter((s) => isNoisy(facts.get(s)));
  if (noisy.length) {
    blamed = await blameAsks(ctx, rev, asks, { whitespace: true, ignore: noisy });
  }
  const restores = new Map<string, string[]>();
  for (const r of removals) if (r.sha) restores.set(r.sha, [...(restores.get(r.sha) ?? []), r.text]);
  const more = [...new Set([...blamed.keys(), ...restores.keys()])].filter((s) => !facts.has(s));
  if (more.length) facts = new Map([...facts, ...(await factsOf(ctx, more))]);
  return { blamed, restores, facts, ...(release !== undefined ? { release } : {}) };
}

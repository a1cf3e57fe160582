/** git blame of asked lines at one commit with -w (whitespace-only changes pass through) and the repository's ignore-revs, plus commits lore sees through. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseBlamePorcelain } from "../../git/parse-blame.ts";
import { gitMaybe } from "../../git/run.ts";
import { IGNORE_REVS_FILE } from "../../index/blame.ts";
import type { QueryContext } from "../context.ts";

/** Old-side lines to blame in one file, each with its weight (a deleted line counts more than its neighbour). */
export interface Ask {
  path: string;
  lines: Map<number, number>;
  /** Neighbours of where a fix only inserts: weighed by the ranking (suspect-rank.ts), not here. */
  near?: Set<number>;
}

/** Per commit (full sha): the asked lines it wrote, by path, and their weight summed. */
export type Blamed = Map<string, { lines: Map<string, number[]>; weight: number; near: number; count: number }>;

/** Sorted line numbers as [first, last] ranges. */
export function toRanges(lines: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const n of [...lines].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last && n <= last[1] + 1) last[1] = Math.max(last[1], n);
    else out.push([n, n]);
  }
  return out;
}

export async function blameAsks(ctx: QueryContext, rev: string, asks: Ask[], see: { whitespace: boolean; ignore: string[] }): Promise<Blamed> {
  const out: Blamed = new Map();
  const file = join(ctx.index.repo.root, IGNORE_REVS_FILE);
  const ignore = [...(see.whitespace ? ["-w"] : []), ...(see.whitespace && existsSync(file) ? ["--ignore-revs-file", file] : []), ...see.ignore.flatMap((s) => ["--ignore-rev", s])];
  await Promise.all(
    asks.map(async (ask) => {
      const ranges = toRanges([...ask.lines.keys(), ...(ask.near ?? [])]);
      if (ranges.length === 0) return;
      // A line past the end (a trace's stale frame) makes git refuse the whole blame: gitMaybe, then nothing.
      const raw = await gitMaybe(["blame", "--porcelain", ...ignore, ...ranges.flatMap(([a, b]) => ["-L", `${a},${b}`]), rev, "--", ask.path], ctx.index.git);
      if (!raw) return;
      const b = parseBlamePorcelain(raw);
      if (b.binary) return;
      for (const h of b.hunks) {
        for (let n = h.start; n <= h.end; n++) {
          const w = ask.lines.get(n);
          const near = w === undefined && ask.near?.has(n) === true;
          if (w === undefined && !near) continue;
          const c = out.get(h.sha) ?? { lines: new Map<string, number[]>(), weight: 0, near: 0, count: 0 };
          c.lines.set(ask.path, [...(c.lines.get(ask.path) ?? []), n]);
          if (near) c.near++;
          else (c.weight += w!), c.count++;
          out.set(h.sha, c);
        }
      }
    }),
  );
  return out;
}

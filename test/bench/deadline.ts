/**
 * The slow questions of a long history asked with a deadline (issue 26), in this process on a fresh
 * LORE_HOME (no change index yet, as in a repository's first minutes): the time to the first partial
 * answer and how far it got, the time to the whole answer, and the git command it replaces, in one run.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { answer } from "../../src/queries/answer.ts";
import { closeAll } from "../../src/index/indexes.ts";
import { progressMessage } from "../../src/queries/partial.ts";
import { endGitChildren } from "../../src/git/processes.ts";
import { runGit } from "../helpers/git-repo.ts";
import { ms, ratio } from "./report.ts";

/** A function the first commit wrote and HEAD still has: git log -S walks the whole history to find where it came from. */
function oldName(dir: string): string {
  const root = runGit(dir, ["rev-list", "--max-parents=0", "HEAD"]).trim().split("\n")[0]!;
  const text = runGit(dir, ["grep", "-h", "-o", "-E", "function [A-Za-z_][A-Za-z0-9_]{5,}", root]);
  for (const line of text.split("\n")) {
    const name = line.slice("function ".length);
    if (name && runGit(dir, ["grep", "-l", "-F", name, "HEAD"]).trim() !== "") return name;
  }
  throw new Error("no function of the first commit is left at HEAD");
}

const time = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const t = performance.now();
  const r = await fn();
  return [r, performance.now() - t];
};

/** Markdown rows: code search and history -L, each with a deadline (first partial) and without (whole), beside git. */
export async function deadlineRows(dir: string, deadlineMs = 2000): Promise<string[]> {
  const saved = process.env.LORE_HOME;
  process.env.LORE_HOME = mkdtempSync(join(tmpdir(), "lore-bench-deadline-"));
  try {
    const ask = (name: string, args: Record<string, unknown>) => answer(name, { repo: dir, ...args }, { cwd: dir }) as Promise<any>;
    const [, indexed] = await time(() => ask("log", { limit: 1 }));
    const name = oldName(dir);
    const busy = runGit(dir, ["log", "-n", "2000", "--format=", "--name-only"])
      .split("\n")
      .filter(Boolean)
      .reduce((m, f) => m.set(f, (m.get(f) ?? 0) + 1), new Map<string, number>());
    const file = [...busy].sort((a, b) => b[1] - a[1]).map(([f]) => f).find((f) => runGit(dir, ["ls-files", "--", f]).trim() !== "")!;
    const rows = [`history indexed in ${(indexed / 1000).toFixed(1)} s (no change index: code search walks git); deadline ${deadlineMs} ms`, "", "| question | first answer (deadline) | how far | whole answer | whole, in slices | git | whole / git | slices / git |", "|---|---:|---|---:|---:|---:|---:|---:|"];
    const cases: [string, string, Record<string, unknown>, string[]][] = [
      [`search --code ${name} -n 3`, "search", { query: name, code: true, limit: 3 }, ["log", `-S${name}`, "-n", "4", "--format=%H", "-M", "--raw", "-p"]],
      // A word no commit wrote: git walks and diffs every commit (as show_notes -n 3 nearly does on git/git).
      ["search --code neverWrittenWord -n 3", "search", { query: "neverWrittenWord", code: true, limit: 3 }, ["log", "-SneverWrittenWord", "-n", "4", "--format=%H", "-M", "--raw", "-p"]],
      [`search --code ${name} --oldest -n 1`, "search", { query: name, code: true, oldest: true, limit: 1 }, ["log", `-S${name}`, "--reverse", "--format=%H", "-M", "--raw", "-p"]],
      [`history ${file} -L 1,20`, "history", { path: file, lines: "1,20", limit: 20 }, ["log", `-L1,20:${file}`, "-n", "21", "--format=%H"]],
    ];
    for (const [label, q, args, gitArgs] of cases) {
      const tGit = (await time(async () => runGit(dir, gitArgs)))[1];
      const [, tWhole] = await time(() => ask(q, args));
      // The same walk as a deadline makes it (in slices, each commit handed on as found), to its end.
      const [, tSliced] = await time(() => ask(q, { ...args, limit: (args.limit as number) - (q === "history" ? 2 : 0), deadline: 3_600_000 }));
      // One fewer asked, so history -L's cache of the whole answer is not what answers.
      const [first, tFirst] = await time(() => ask(q, { ...args, limit: (args.limit as number) - (q === "history" ? 1 : 0), deadline: deadlineMs }));
      // The work past the deadline goes on in this process: end it, so it does not slow the next row.
      endGitChildren();
      const list = first.results ?? first.commits ?? [];
      const far = first.partial ? `${list.length} found; ${progressMessage(first.progress, q).replace(`${q}: `, "")}` : `whole (${list.length})`;
      rows.push(`| ${label} | ${ms(tFirst)} | ${far} | ${ms(tWhole)} | ${ms(tSliced)} | ${ms(tGit)} | ${ratio(tWhole, tGit)} | ${ratio(tSliced, tGit)} |`);
    }
    return rows;
  } finally {
    closeAll();
    if (saved === undefined) delete process.env.LORE_HOME;
    else process.env.LORE_HOME = saved;
  }
}

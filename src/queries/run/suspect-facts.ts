/** The facts a suspect's ranking reads of each commit (author, time, subject, how many files), and the last release before a commit. */
import { git, gitMaybe } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";

export interface Facts {
  author: string;
  time: number;
  subject: string;
  files: number;
}

export async function factsOf(ctx: QueryContext, shas: string[]): Promise<Map<string, Facts>> {
  const out = new Map<string, Facts>();
  if (shas.length === 0) return out;
  const text = (await git(["log", "--no-walk=unsorted", "--stdin", "--no-show-signature", "--format=%x01%H%x00%aN%x00%at%x00%s", "--shortstat"], { ...ctx.index.git, input: shas.join("\n") + "\n" })).toString("utf8");
  for (const rec of text.split("\x01")) {
    if (!rec) continue;
    const [head, ...rest] = rec.split("\n");
    const [sha, author, at, subject] = head!.split("\0") as string[];
    const files = /(\d+) files? changed/.exec(rest.join(" "));
    out.set(sha!, { author: author!, time: Number(at), subject: subject!, files: files ? Number(files[1]) : 0 });
  }
  return out;
}

/** The commit time of the newest tag reachable from `rev` (the last release it was built on), if any. */
export async function lastRelease(ctx: QueryContext, rev: string): Promise<number | undefined> {
  const tag = (await gitMaybe(["describe", "--tags", "--abbrev=0", rev], ctx.index.git))?.toString("utf8").trim();
  if (!tag) return undefined;
  const t = (await gitMaybe(["log", "-1", "--format=%ct", `refs/tags/${tag}^{commit}`, "--"], ctx.index.git))?.toString("utf8").trim();
  return t ? Number(t) : undefined;
}

/** The newest commit at or before `rev` that removed `text` from `path` (git log -S: its count changed, and `rev` has none). */
export async function removedBy(ctx: QueryContext, rev: string, path: string, text: string): Promise<string | undefined> {
  const out = await gitMaybe(["log", "-n", "1", "--format=%H", "--no-ext-diff", "--no-textconv", `-S${text}`, rev, "--", path], { ...ctx.index.git, timeoutMs: 20_000 });
  return out?.toString("utf8").trim() || undefined;
}

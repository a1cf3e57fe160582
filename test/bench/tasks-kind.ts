/**
 * A kind of task of the task benchmark: how a task is drawn from a repository, the git commands an
 * agent runs for it (default formats, follow-ups included), the lore tool calls it makes instead,
 * and the facts the task needs, checked in lore's answers against git.
 */
import type { RepoFacts } from "./tasks-repo.ts";

/** One drawn task: what it asks (for the table) and its inputs. */
export interface Task {
  kind: string;
  what: string;
  [input: string]: unknown;
}

/** Runs a shell command line in the repository (git, or git in a pipeline) and returns what it printed. */
export type RunGit = (cmd: string) => string;

/** Calls a lore tool as MCP does; resolves to what reaches the model (structuredContent, or the text of an error). */
export interface CallLore {
  (tool: string, args: Record<string, unknown>): Promise<any>;
  /** Whether the tool takes this argument (a follow-up uses `skip` where there is one). */
  takes(tool: string, arg: string): boolean;
}

export interface Kind {
  name: string;
  draw(f: RepoFacts): Task | undefined;
  git(t: Task, run: RunGit): void;
  lore(t: Task, call: CallLore): Promise<void>;
  /** What lore's answers (in call order) got wrong or left out, checked against git; [] when all is there. */
  check(t: Task, f: RepoFacts, answers: any[]): string[];
}

/** A path or text quoted for sh. */
export function q(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}

/** Whether an abbreviated id (lore's 12-hex, git's 7+) names the full one. */
export function sameSha(short: string | undefined, full: string): boolean {
  return !!short && short.length >= 7 && full.startsWith(short.replace(/^\^/, ""));
}

/** Compares two lists of commits (abbreviated on lore's side): the differences, in words. */
export function sameCommits(what: string, lore: (string | undefined)[], git: string[]): string[] {
  if (lore.length !== git.length) return [`${what}: lore has ${lore.length} commits, git ${git.length}`];
  const bad = git.findIndex((g, i) => !sameSha(lore[i], g));
  return bad < 0 ? [] : [`${what}: commit ${bad + 1} is ${lore[bad]} in lore, ${git[bad]!.slice(0, 12)} in git`];
}

/** Asks `tool` and then every continuation its answers offer (a list cut by size or limit): all the answers. */
export async function allPages(call: CallLore, tool: string, args: Record<string, unknown>, max = 50): Promise<any[]> {
  const out = [await call(tool, args)];
  while (typeof out.at(-1)?.continue === "string" && out.length < max) out.push(await call(tool, { ...args, continue: out.at(-1).continue }));
  return out;
}

/** The paths of compare's files in the model's copy: { path: [+, -] }, or rows (a status, an old path). */
export function filePaths(a: any): string[] {
  return Array.isArray(a?.files) ? a.files.map((x: any) => x.path) : Object.keys(a?.files ?? {});
}

/** A drawn task's repeated tries: draw() may find nothing suitable on a pick and try again. */
export function tries<T>(n: number, f: () => T | undefined): T | undefined {
  for (let i = 0; i < n; i++) {
    const v = f();
    if (v !== undefined) return v;
  }
  return undefined;
}

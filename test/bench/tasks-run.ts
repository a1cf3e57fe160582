/**
 * Runs the task benchmark's tasks on one repository: each task's git way (its commands, their
 * output as the agent reads it) and its lore way (MCP tool calls answered in this process, what
 * reaches the model being JSON.stringify(structuredContent)), tokens counted with Claude's
 * tokenizer, calls and time; and the facts each task needs, checked in lore's answers against git.
 */
import { countTokens } from "@anthropic-ai/tokenizer";
import { callTool } from "../../src/mcp/call-tool.ts";
import { DEFAULT_MAX_BYTES } from "../../src/mcp/cap.ts";
import { expandTuples } from "../../src/mcp/model-rows.ts";
import { RepoScope } from "../../src/mcp/repos.ts";
import { toolArgs } from "../../src/mcp/schemas.ts";
import { queryForTool } from "../../src/mcp/tools.ts";
import { answer } from "../../src/queries/answer.ts";
import type { CallLore, Kind, Task } from "./tasks-kind.ts";
import { seeded, sh, type RepoFacts } from "./tasks-repo.ts";

export interface Way {
  /** git's output; lore's JSON copy (structuredContent), what Claude Code, Codex and VS Code read. */
  tokens: number;
  /** lore's way: its text copy (content), what Gemini CLI, opencode and Zed read. */
  text?: number;
  /** lore's way: the tokens of its answers' values alone (valuesAlone), no keys or JSON punctuation. */
  values?: number;
  /** lore's way: the tokens of its values alone as one flat JSON array: the least any JSON copy of them can cost. */
  flat?: number;
  calls: number;
  ms: number;
}

export interface TaskResult {
  kind: string;
  what: string;
  git: Way;
  lore: Way;
  /** What lore got wrong or left out ([] when every fact is there and equal to git). */
  problems: string[];
}

/** Calls lore's MCP tools in this process, as `lore mcp --no-daemon` answers them. */
export function loreCaller(repo: string, way: Way, answers: unknown[], texts?: string[]): CallLore {
  const scope = new RepoScope(repo);
  const deps = { scope, call: (name: string, input: Record<string, unknown>, o: { cwd: string }) => answer(name, input, { cwd: o.cwd }), noDaemon: true, maxBytes: DEFAULT_MAX_BYTES, log: (l: string) => console.error(l) };
  const call = (async (tool: string, args: Record<string, unknown>) => {
    const def = queryForTool(`lore_${tool}`);
    if (!def) throw new Error(`no tool lore_${tool}`);
    const t0 = performance.now();
    const r = await callTool(def, args, deps);
    way.ms += performance.now() - t0;
    way.calls++;
    // What the model reads: the structured content's JSON, or the text where there is none (show, an error); and the text copy.
    const content = r.content.map((c) => c.text).join("\n");
    const text = r.structuredContent ? JSON.stringify(r.structuredContent) : content;
    way.tokens += countTokens(text);
    way.text = (way.text ?? 0) + countTokens(content);
    way.values = (way.values ?? 0) + countTokens(r.structuredContent ? valuesAlone(r.structuredContent) : text);
    way.flat = (way.flat ?? 0) + countTokens(r.structuredContent ? JSON.stringify(valuesOf(r.structuredContent)) : text);
    texts?.push(text, ...(r.structuredContent ? [content] : []));
    // A tool that answers in text (show) gives the model its text: the facts are checked in it (rows as objects again).
    const value = r.isError ? { error: r.content[0]?.text } : expandTuples(r.structuredContent ?? { text: r.content.map((c) => c.text).join("\n") });
    answers.push(value);
    return value;
  }) as CallLore;
  call.takes = (tool, arg) => {
    const def = queryForTool(`lore_${tool}`);
    return !!def && toolArgs(def).some(([k]) => k === arg);
  };
  return call;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** `perKind` tasks of each kind, drawn with the seed (each kind from its own sequence, so one kind's draws never move another's). */
export function drawTasks(f: RepoFacts, kinds: readonly Kind[], perKind: number, seed: number): Task[] {
  const tasks: Task[] = [];
  for (const k of kinds) {
    f.rand = seeded(seed ^ hash(`${f.name}:${k.name}`));
    const seen = new Set<string>();
    for (let tries = 0; seen.size < perKind && tries < perKind * 10; tries++) {
      const t = k.draw(f);
      if (!t || seen.has(t.what)) continue;
      seen.add(t.what);
      tasks.push({ ...t, kind: k.name });
    }
  }
  return tasks;
}

/** Runs one task both ways and checks lore's facts. */
export async function runTask(f: RepoFacts, kind: Kind, t: Task): Promise<TaskResult> {
  const git: Way = { tokens: 0, calls: 0, ms: 0 };
  kind.git(t, (cmd) => {
    const t0 = performance.now();
    const out = sh(f.dir, cmd);
    git.ms += performance.now() - t0;
    git.calls++;
    git.tokens += countTokens(out);
    return out;
  });
  const lore: Way = { tokens: 0, calls: 0, ms: 0 };
  const answers: unknown[] = [];
  await kind.lore(t, loreCaller(f.dir, lore, answers));
  let problems: string[];
  try {
    problems = answers.some((a: any) => a?.error) ? answers.flatMap((a: any) => (a?.error ? [String(a.error)] : [])) : kind.check(t, f, answers);
  } catch (err) {
    problems = [`check failed: ${err instanceof Error ? err.message : String(err)}`];
  }
  return { kind: kind.name, what: t.what, git, lore, problems };
}

/**
 * An answer's values alone, space-separated, without its field names or JSON's punctuation (a
 * path or a person as a key is a value): a floor for any structured answer that says the same
 * facts, to tell what the format costs from what the content does.
 */
const FIELD_NAME = /^[a-z][A-Za-z]*$/;

/** An answer's values in order, as they are (numbers stay numbers), without field names (a path or a person as a key is a value). */
export function valuesOf(v: unknown): unknown[] {
  const out: unknown[] = [];
  const walk = (x: unknown): void => {
    if (x === null || x === undefined) return;
    if (typeof x !== "object") return void out.push(x);
    if (Array.isArray(x)) return x.forEach(walk);
    // A field name (camelCase) is format; any other key (a path, a person) is a value, and so is
    // every key of an object keyed by values (a person named "agchou" among "Ann Lee" and others).
    const keyedByValues = Object.keys(x).some((k) => !FIELD_NAME.test(k));
    for (const [k, y] of Object.entries(x)) {
      if (k === "columns" || k === "continue") continue;
      if (keyedByValues) out.push(k);
      walk(y);
    }
  };
  walk(v);
  return out;
}

export function valuesAlone(v: unknown): string {
  return valuesOf(v).map(String).join(" ");
}

export function geomean(xs: readonly number[]): number {
  return xs.length ? Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length) : NaN;
}

/** The tokens of lore's values alone over git's, for one task. */
export function valuesRatio(r: TaskResult): number {
  return Math.max(1, r.lore.values ?? r.lore.tokens) / Math.max(1, r.git.tokens);
}

/** The tokens of one of lore's copies of a task's answers ("flat": its values alone as one flat JSON array). */
export function copyTokens(r: TaskResult, copy: "json" | "text" | "flat"): number {
  return copy === "json" ? r.lore.tokens : copy === "text" ? (r.lore.text ?? r.lore.tokens) : (r.lore.flat ?? r.lore.tokens);
}

/** A copy's tokens over its values alone, for one task: what the format costs beside the facts. */
export function overFloor(r: TaskResult, copy: "json" | "text" | "flat"): number {
  return Math.max(1, copyTokens(r, copy)) / Math.max(1, r.lore.values ?? r.lore.tokens);
}

/** The text copy's tokens over git's, for one task. */
export function textRatio(r: TaskResult): number {
  return Math.max(1, r.lore.text ?? r.lore.tokens) / Math.max(1, r.git.tokens);
}

/** lore's tokens over git's, for one task (a task whose git way printed nothing counts as 1 token). */
export function tokenRatio(r: TaskResult): number {
  return Math.max(1, r.lore.tokens) / Math.max(1, r.git.tokens);
}

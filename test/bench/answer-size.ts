/**
 * What an agent pays for an answer: bytes and Claude tokens of lore's JSON (what the model reads
 * as structuredContent) beside the git output it replaces, and of each tool's model-facing
 * listing. `bun test/bench/answer-size.ts` measures it alone on the corpus (express and hono);
 * `npm run bench` adds the same tables.
 */
import { countTokens } from "@anthropic-ai/tokenizer";
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { toolListings } from "../../src/mcp/tools.ts";
import { ROOT } from "./lore-cli.ts";
import { pickTarget, type Target } from "./pairs.ts";
import { bytes, markdownTable, ratio, type Table } from "./report.ts";
import { mustRun } from "./timing.ts";

/** Asks lore a question (in-process or through the daemon) and returns its answer object. */
export type Ask = (method: string, params: Record<string, unknown>) => Promise<unknown>;

interface Cost {
  bytes: number;
  tokens: number;
}

export interface SizeRow {
  repo: string;
  question: string;
  gitLabel: string;
  lore: Cost;
  git: Cost;
  /** The budget for lore/git bytes, where there is one (DESIGN: blame 0.35×; the issue: intent 0.4×). */
  goal?: number;
}

function cost(text: string): Cost {
  return { bytes: Buffer.byteLength(text), tokens: countTokens(text) };
}

async function gitOut(repo: string, args: string[]): Promise<string> {
  return Buffer.from((await mustRun(["git", ...args], { cwd: repo })).stdout).toString("utf8");
}

/**
 * What an agent runs for intent: git blame -L, then git show of each commit it names — as typed
 * (the patch included), or the leanest form (--porcelain blame, show --name-only: messages and files).
 */
async function gitIntent(repo: string, t: Target, range: string, lean: boolean): Promise<string> {
  let out = await gitOut(repo, ["blame", ...(lean ? ["--porcelain"] : []), "-L", range, "--", t.file]);
  const porcelain = lean ? out : await gitOut(repo, ["blame", "--porcelain", "-L", range, "--", t.file]);
  const shas = new Set([...porcelain.matchAll(/^([0-9a-f]{40}) \d+ \d+/gm)].map((m) => m[1]!).filter((s) => !/^0+$/.test(s)));
  for (const sha of shas) out += await gitOut(repo, ["show", ...(lean ? ["--name-only"] : []), sha]);
  return out;
}

/** blame (the target's range, 21 lines, and the whole file), history -n 20 and intent (the range) of the target file. */
export async function answerSizes(label: string, t: Target, ask: Ask): Promise<SizeRow[]> {
  const [a, b] = t.range;
  const L = `${a},${b}`;
  const file = { repo: t.repo, path: t.file };
  const json = async (method: string, params: Record<string, unknown>) => cost(JSON.stringify(await ask(method, { ...file, ...params })));
  const rows: SizeRow[] = [];
  const add = async (question: string, gitLabel: string, lore: Promise<Cost>, git: Promise<string>, goal?: number) =>
    rows.push({ repo: label, question, gitLabel, lore: await lore, git: cost(await git), ...(goal ? { goal } : {}) });
  await add(`blame -L ${L}`, `git blame --porcelain -L ${L}`, json("blame", { startLine: a, endLine: b }), gitOut(t.repo, ["blame", "--porcelain", "-L", L, "--", t.file]), 0.35);
  await add(`blame (${t.lines} lines)`, "git blame --porcelain", json("blame", {}), gitOut(t.repo, ["blame", "--porcelain", "--", t.file]), 0.35);
  await add("history -n 20", "git log -n 20 --follow --numstat", json("history", { limit: 20 }), gitOut(t.repo, ["log", "-n", "20", "--follow", "--numstat", "--", t.file]));
  await add(`intent -L ${L}`, "git blame -L, then git show per commit", json("intent", { startLine: a, endLine: b }), gitIntent(t.repo, t, L, false), 0.4);
  await add(`intent -L ${L}`, "git blame --porcelain -L, then git show --name-only per commit (no patches)", json("intent", { startLine: a, endLine: b }), gitIntent(t.repo, t, L, true));
  return rows;
}

function goal(r: SizeRow): string {
  if (r.goal === undefined) return "";
  return r.lore.bytes / r.git.bytes <= r.goal ? `✅ ≤ ${r.goal}×` : `❌ > ${r.goal}×`;
}

export function sizeTable(rows: SizeRow[], files: Record<string, string>): Table {
  return {
    title: "What an agent reads: lore's JSON vs git's output, in bytes and Claude tokens",
    head: ["repository", "question", "lore bytes", "git bytes", "bytes lore/git", "lore tokens", "git tokens", "tokens lore/git", "goal (bytes)", "git side"],
    align: "llrrrrrrll",
    rows: rows.map((r) => [
      r.repo,
      r.question,
      bytes(r.lore.bytes),
      bytes(r.git.bytes),
      ratio(r.lore.bytes, r.git.bytes),
      String(r.lore.tokens),
      String(r.git.tokens),
      ratio(r.lore.tokens, r.git.tokens),
      goal(r),
      r.gitLabel,
    ]),
    notes: [
      `Asked about the most often changed source file of each repository (${Object.entries(files)
        .map(([repo, f]) => `${repo}: ${f}`)
        .join("; ")}), the 21 lines in its middle. lore's side is the answer's JSON as the model reads it (MCP structuredContent, \`--json\`); tokens by @anthropic-ai/tokenizer (Claude's tokenizer as published on npm; newer models' counts differ a little).`,
    ],
  };
}

/** What every tool costs the model on every turn with alwaysLoad: name, description and input schema. */
export function toolTable(): Table {
  const rows = toolListings().map((t) => {
    const text = JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema });
    return [t.name, Buffer.byteLength(text), countTokens(text)] as const;
  });
  const total = rows.reduce((s, r) => [s[0] + r[1], s[1] + r[2]], [0, 0]);
  return {
    title: "Model-facing tools/list: name + description + input schema per tool",
    head: ["tool", "bytes", "tokens"],
    rows: [...rows.map((r) => [r[0], String(r[1]), String(r[2])]), ["all tools (budget 8,192 bytes)", String(total[0]), String(total[1])]],
    notes: ["The part Claude Code sends to the model on every turn when lore is registered with alwaysLoad (output schemas are not sent); test/mcp/tool-budget.test.ts fails above 8,192 bytes, and above 7,100 for the tools of today (room for the next ones)."],
  };
}

/** The corpus folder: $LORE_CORPUS, default ../shared/corpus beside the project. */
export const CORPUS = resolve(process.env.LORE_CORPUS || join(ROOT, "..", "shared", "corpus"));

async function main(): Promise<void> {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "lore-size-")));
  process.env.LORE_HOME = join(scratch, "home");
  const { answer } = await import("../../src/queries/answer.ts");
  const { closeAll } = await import("../../src/index/indexes.ts");
  try {
    const rows: SizeRow[] = [];
    const files: Record<string, string> = {};
    for (const name of ["express", "hono"]) {
      const bundle = join(CORPUS, `${name}.bundle`);
      if (!existsSync(bundle)) {
        console.error(`answer-size: ${bundle} is missing; skipped (set LORE_CORPUS to the folder with the bundles)`);
        continue;
      }
      await mustRun(["git", "clone", "-q", bundle, name], { cwd: scratch });
      const repo = join(scratch, name);
      const t = await pickTarget(repo);
      files[name] = `${t.file} (${t.lines} lines)`;
      rows.push(...(await answerSizes(name, t, (method, params) => answer(method, params, { cwd: repo }))));
    }
    console.log([sizeTable(rows, files), toolTable()].map(markdownTable).join("\n\n"));
  } finally {
    closeAll();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();

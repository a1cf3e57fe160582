/** Answers one tool call: check the arguments, pick the repository, ask the question through the client, fit the answer to the budget. */
import { render } from "../cli/render/index.ts";
import { plain } from "../cli/style.ts";
import { LoreError, toLoreError } from "../errors.ts";
import { validateInput, type AnyQuery } from "../queries/define.ts";
import { firstAbsolutePath } from "../queries/worktree-input.ts";
import { capAnswer } from "./cap.ts";
import { forModel } from "./model-view.ts";
import { compactText } from "./model-text.ts";
import { moreHint } from "./hints.ts";
import { forAgents } from "./agent-words.ts";
import { didYouMean } from "../nearest.ts";
import type { RepoScope } from "./repos.ts";
import { toolArgs } from "./schemas.ts";
import { withProgress, type CallExtra } from "./deadline.ts";

export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface ToolDeps {
  scope: RepoScope;
  /** The client's callQuestion: the daemon, or this process when noDaemon. */
  call: (name: string, input: Record<string, unknown>, opts: { cwd: string; noDaemon: boolean }) => Promise<unknown>;
  noDaemon: boolean;
  maxBytes: number;
  log: (line: string) => void;
  /** Every call's deadline in ms (LORE_MCP_DEADLINE); undefined: none. */
  deadlineMs?: number;
}

/** The arguments as the question declares them; agents send "200" or 200 alike, so both are taken. */
function toolInput(def: AnyQuery, raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== "object" || Array.isArray(raw)) throw new LoreError("BAD_ARGUMENT", "Tool arguments must be a JSON object.");
  const specs = new Map(toolArgs(def));
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const spec = specs.get(key);
    if (!spec) throw new LoreError("BAD_ARGUMENT", `lore_${def.name} does not take "${key}"; it takes ${[...specs.keys()].join(", ")}.${didYouMean(key, [...specs.keys()], (k) => `"${k}"`)}`);
    input[key] = spec.type === "string" && typeof value === "number" ? String(value) : value;
  }
  validateInput(def, input); // the same rules and messages as the CLI, before any repository is touched
  return input;
}

/** An error as one text block, in the tool's words (messages are written in the command line's: agent-words.ts). */
export function errorResult(err: unknown, def?: AnyQuery): ToolResult {
  const e = toLoreError(err);
  // No structuredContent: the SDK (and the spec) skip output validation only when isError is set.
  return { content: [{ type: "text", text: `${e.code}: ${forAgents(e.message, def)}` }], isError: true };
}

export async function callTool(def: AnyQuery, rawArgs: unknown, deps: ToolDeps, extra?: CallExtra): Promise<ToolResult> {
  try {
    const input = toolInput(def, rawArgs);
    // The worktree from repo, else from an absolute path (the agent's Read tool shows them), else the default one.
    const root = await deps.scope.resolve(input.repo as string | undefined, firstAbsolutePath(def, input));
    // The lists are cut to the budget where the question is answered, which mints their continue tokens.
    const asked = { ...input, repo: root, budget: deps.maxBytes, ...(deps.deadlineMs !== undefined ? { deadline: deps.deadlineMs } : {}) };
    const answer = await withProgress(extra, deps.noDaemon, (ticket) => deps.call(def.name, ticket ? { ...asked, ticket } : asked, { cwd: root, noDaemon: deps.noDaemon }));
    const capped = capAnswer(def.name, answer, deps.maxBytes);
    // An answer's note is a sentence for the reader ("review without --staged"): in the tool's words, in both copies.
    const note = capped.result.note;
    if (typeof note === "string") capped.result = { ...capped.result, note: forAgents(note, def) };
    const hint = moreHint(def.name, capped);
    // The renderers speak MCP's words here (limit, continue "T"); a file's page says where it goes on in the hint alone.
    const lines = render(def.name, capped.result, plain, "mcp").split("\n").filter((l) => !(hint && l.startsWith("… more:")));
    const text = [...lines, ...(hint ? [hint] : [])].join("\n");
    if (def.textForModel) return { content: [{ type: "text", text: compactText(def.name, capped.result, text) }] };
    return { content: [{ type: "text", text }], structuredContent: forModel(def.name, capped.result, (typeof input.repo === "string" && input.repo !== "") || firstAbsolutePath(def, input) !== undefined, input) };
  } catch (err) {
    const e = toLoreError(err);
    if (e.code === "INTERNAL") deps.log(`lore mcp: lore_${def.name} failed: ${e.cause instanceof Error ? (e.cause.stack ?? e.cause.message) : e.message}`);
    return errorResult(e, def);
  }
}

/** Answers one tool call: check the arguments, pick the repository, ask the question through the client, fit the answer to the budget. */
import { render } from "../cli/render/index.ts";
import { plain } from "../cli/style.ts";
import { LoreError, toLoreError } from "../errors.ts";
import { validateInput, type AnyQuery } from "../queries/define.ts";
import { firstAbsolutePath } from "../queries/worktree-input.ts";
import { capAnswer, MIN_BUDGET, TEXT_PAGE, type Capped } from "./cap.ts";
import { forModel } from "./model-view.ts";
import { compactText } from "./model-text.ts";
import { textCopy } from "./text-copy.ts";
import { moreHint } from "./hints.ts";
import { forAgents } from "./agent-words.ts";
import { didYouMean } from "../nearest.ts";
import type { RepoScope } from "./repos.ts";
import { toolArgs } from "./schemas.ts";
import { withProgress, type CallExtra, type ProgressOf } from "./deadline.ts";

export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface ToolDeps {
  /** Which repository a call reads (RepoScope for lore mcp; another transport may bring its own rules). */
  scope: Pick<RepoScope, "resolve" | "askRoots">;
  /** The client's callQuestion: the daemon, or this process when noDaemon. */
  call: (name: string, input: Record<string, unknown>, opts: { cwd: string; noDaemon: boolean }) => Promise<unknown>;
  noDaemon: boolean;
  maxBytes: number;
  log: (line: string) => void;
  /** Every call's deadline in ms (LORE_MCP_DEADLINE); undefined: none. */
  deadlineMs?: number;
  /** How far a call with a ticket got, when the questions are answered here rather than by the daemon. */
  progress?: ProgressOf;
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

/** What an MCP answer's cut text says to do, in tool arguments (git's own -n is one of lore_git's args). */
const CUT_SHORT: Record<string, string> = { git: "Output cut short; narrow it (paths, a shorter range, -n).", changes: "Patch cut short; narrow it (paths)." };

/** The two copies of one page: the model's JSON and its text, which says the same (text-copy.ts). */
function copiesOf(def: AnyQuery, capped: Capped, input: Record<string, unknown>): ToolResult {
  // An answer's note is a sentence for the reader ("review without --staged"): in the tool's words, in both copies.
  const note = capped.result.note;
  if (typeof note === "string") capped.result = { ...capped.result, note: forAgents(note, def) };
  const hint = moreHint(capped);
  if (def.textForModel) {
    // The renderers speak MCP's words here (limit, continue "T"); a file's page says where it goes on in the hint alone.
    const lines = render(def.name, capped.result, plain, "mcp").split("\n").filter((l) => !(hint && l.startsWith("… more")));
    return { content: [{ type: "text", text: compactText(def.name, capped.result, [...lines, ...(hint ? [hint] : [])].join("\n")) }] };
  }
  const view = forModel(def.name, capped.result, (typeof input.repo === "string" && input.repo !== "") || firstAbsolutePath(def, input) !== undefined, input);
  if (capped.result.truncated === true && typeof capped.result.continue !== "string" && CUT_SHORT[def.name]) view.hint = CUT_SHORT[def.name];
  return { content: [{ type: "text", text: textCopy(view) }], structuredContent: view };
}

const textLength = (r: ToolResult) => r.content.reduce((n, c) => n + c.text.length, 0);

export async function callTool(def: AnyQuery, rawArgs: unknown, deps: ToolDeps, extra?: CallExtra): Promise<ToolResult> {
  try {
    const input = toolInput(def, rawArgs);
    // The worktree from repo, else from an absolute path (the agent's Read tool shows them), else the default one.
    const root = await deps.scope.resolve(input.repo as string | undefined, firstAbsolutePath(def, input));
    // The lists are cut to the budget where the question is answered, which mints their continue tokens.
    const ask = (budget: number) => {
      const asked = { ...input, repo: root, budget, ...(deps.deadlineMs !== undefined ? { deadline: deps.deadlineMs } : {}) };
      return withProgress(extra, deps.noDaemon, (ticket) => deps.call(def.name, ticket ? { ...asked, ticket } : asked, { cwd: root, noDaemon: deps.noDaemon }), deps.progress);
    };
    // One page for both copies: when its text is longer than a client keeps (TEXT_PAGE), the page is asked again, smaller.
    let budget = deps.maxBytes;
    for (let tries = 0; ; tries++) {
      const result = copiesOf(def, capAnswer(def.name, await ask(budget), budget), input);
      const length = textLength(result);
      if (length <= TEXT_PAGE || tries === 3 || budget <= MIN_BUDGET) return result;
      budget = Math.max(MIN_BUDGET, Math.floor((budget * TEXT_PAGE * 0.95) / length));
    }
  } catch (err) {
    const e = toLoreError(err);
    if (e.code === "INTERNAL") deps.log(`lore mcp: lore_${def.name} failed: ${e.cause instanceof Error ? (e.cause.stack ?? e.cause.message) : e.message}`);
    return errorResult(e, def);
  }
}

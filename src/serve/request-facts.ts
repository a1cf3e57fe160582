/** What a request asks and how its answer ended, in the few words the access log keeps (never arguments beyond repo, never results). */
import type { JSONRPCMessage } from "@modelcontextprotocol/server";

export interface Asked {
  method?: string;
  tool?: string;
  repo?: string;
}

const short = (v: unknown) => (typeof v === "string" ? v.slice(0, 100) : undefined);

export function whatIsAsked(body: unknown): Asked {
  const first = (Array.isArray(body) ? body[0] : body) as Record<string, unknown> | undefined;
  if (!first || typeof first !== "object") return {};
  const params = (first.params ?? {}) as Record<string, unknown>;
  const args = (params.arguments ?? {}) as Record<string, unknown>;
  const isCall = first.method === "tools/call";
  return {
    method: short(first.method),
    ...(isCall ? { tool: short(params.name), repo: short(args?.repo) } : {}),
  };
}

/** "ok", a tool's error code ("PATH_NOT_FOUND"), or a JSON-RPC error's; undefined for a message that is no answer (a progress notification). */
export function outcomeOf(msg: JSONRPCMessage): string | undefined {
  if ("error" in msg && msg.error) return `RPC_${msg.error.code}`;
  if (!("result" in msg)) return undefined;
  const result = msg.result as { isError?: boolean; content?: { text?: string }[] };
  if (!result.isError) return "ok";
  return /^([A-Z_]+):/.exec(result.content?.[0]?.text ?? "")?.[1] ?? "TOOL_ERROR";
}

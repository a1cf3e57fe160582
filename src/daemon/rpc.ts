/** JSON-RPC 2.0 over one request body: single calls and batches, errors mapped the same way for every method. */
import { isUsageError, toLoreError } from "../errors.ts";

export type Method = (params: Record<string, unknown>) => unknown | Promise<unknown>;

/** A result a method has already turned into JSON text (an answer kept as text): sent as is, never parsed and written again. */
export class JsonText {
  constructor(readonly text: string) {}
}

interface RpcError {
  code: number;
  message: string;
  data?: { code: string };
}

type Id = string | number | null;
export type Response = { jsonrpc: "2.0"; id: Id; result: unknown } | { jsonrpc: "2.0"; id: Id; error: RpcError };

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
/** A lore error (not a protocol one): data.code carries lore's stable code. */
export const LORE_ERROR = -32000;

function failure(id: Id, code: number, message: string, data?: { code: string }): Response {
  return { jsonrpc: "2.0", id, error: data ? { code, message, data } : { code, message } };
}

function isId(v: unknown): v is Id {
  return v === null || typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
}

async function one(req: unknown, methods: (name: string) => Method | undefined): Promise<Response | null> {
  if (typeof req !== "object" || req === null || Array.isArray(req)) return failure(null, INVALID_REQUEST, "A request must be a JSON-RPC 2.0 object.");
  const r = req as Record<string, unknown>;
  const id = "id" in r && isId(r.id) ? r.id : null;
  if (r.jsonrpc !== "2.0" || typeof r.method !== "string" || ("id" in r && !isId(r.id)))
    return failure(id, INVALID_REQUEST, 'A request needs "jsonrpc": "2.0", a string "method" and, if any, a string or number "id".');
  const notification = !("id" in r);
  const method = methods(r.method);
  if (!method) return notification ? null : failure(id, METHOD_NOT_FOUND, `lore has no method "${r.method}".`);
  if (r.params !== undefined && (typeof r.params !== "object" || r.params === null || Array.isArray(r.params)))
    return notification ? null : failure(id, INVALID_PARAMS, "params must be an object of named arguments.");
  try {
    const result = await method((r.params ?? {}) as Record<string, unknown>);
    return notification ? null : { jsonrpc: "2.0", id, result: result ?? null };
  } catch (err) {
    const e = toLoreError(err);
    if (e.code === "INTERNAL") process.stderr.write(`${new Date().toISOString()} ${r.method} failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    return notification ? null : failure(id, isUsageError(e.code) ? INVALID_PARAMS : LORE_ERROR, e.message, { code: e.code });
  }
}

/** Answers a request body; null when it held only notifications (nothing to send back). */
export async function handleRpc(body: string, methods: (name: string) => Method | undefined): Promise<Response | Response[] | null> {
  let req: unknown;
  try {
    req = JSON.parse(body);
  } catch {
    return failure(null, PARSE_ERROR, "The request body is not valid JSON.");
  }
  if (!Array.isArray(req)) return one(req, methods);
  if (req.length === 0) return failure(null, INVALID_REQUEST, "An empty batch is not a request.");
  const out = (await Promise.all(req.map((r) => one(r, methods)))).filter((r): r is Response => r !== null);
  return out.length ? out : null;
}

/** The body of a reply: JSON.stringify's text, with each JsonText result spliced in as the JSON it already is. */
export function serializeRpc(out: Response | Response[]): string {
  const one = (r: Response) =>
    "result" in r && r.result instanceof JsonText ? `{"jsonrpc":"2.0","id":${JSON.stringify(r.id)},"result":${r.result.text}}` : JSON.stringify(r);
  return Array.isArray(out) ? `[${out.map(one).join(",")}]` : one(out);
}

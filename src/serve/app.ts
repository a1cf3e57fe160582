/**
 * lore serve's HTTP face, a hono app: POST /mcp (Streamable HTTP MCP) behind its checks in the order
 * a request meets them — Host and Origin (DNS rebinding), the bearer token, the token's rate, the body's
 * size and time — and GET /healthz. A refusal is a JSON-RPC error with a stable code, and a 401 names
 * no OAuth metadata: a client that sees some goes looking for a login and drops its configured header.
 */
import { Hono } from "hono";
import { isJSONRPCErrorResponse, isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResponse, type JSONRPCMessage } from "@modelcontextprotocol/server";
import type { Logger } from "./access-log.ts";
import { MAX_BODY_BYTES, readBody } from "./body.ts";
import { watchMessages, type AnswerMcp } from "./mcp-endpoint.ts";
import type { RateLimit } from "./rate-limit.ts";
import type { TokenFile } from "./tokens.ts";
import { whatIsAsked, outcomeOf, type Asked } from "./request-facts.ts";

export interface AppDeps {
  tokens: TokenFile;
  /** False only on loopback with no token made yet. */
  tokensRequired: () => boolean;
  /** Names a Host or Origin may carry (null: any Host; an Origin then only from allowOrigins). */
  hosts: Set<string> | null;
  allowOrigins: string[];
  rate: RateLimit;
  clientTimeoutMs: number;
  log: Logger;
  /** The MCP endpoint behind the checks (mcp-endpoint.ts). */
  answer: AnswerMcp;
  health: () => Record<string, unknown>;
}

function refusal(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  const rpc = code === "PARSE_ERROR" ? -32700 : code === "INVALID_REQUEST" ? -32600 : -32000;
  const body = { jsonrpc: "2.0", error: { code: rpc, message, data: { code } }, id: null };
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** The name a Host header gives, without its port ("[::1]:7077" is "::1"). */
function hostName(host: string): string {
  const m = /^\[([^\]]+)\](?::\d+)?$/.exec(host) ?? /^([^:]+)(?::\d+)?$/.exec(host);
  return (m?.[1] ?? host).toLowerCase();
}

function originAllowed(origin: string, deps: AppDeps): boolean {
  if (deps.allowOrigins.includes(origin)) return true;
  try {
    return deps.hosts !== null && deps.hosts.has(hostName(new URL(origin).host));
  } catch {
    return false;
  }
}

/** The caller's token name, undefined when unknown; "-" when no token is asked for. */
function caller(req: Request, deps: AppDeps): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "");
  if (m) return deps.tokens.verify(m[1]!);
  return deps.tokensRequired() ? undefined : "-";
}

export function createServeApp(deps: AppDeps): Hono {
  const app = new Hono();
  app.get("/healthz", (c) => c.json(deps.health()));
  app.all("/mcp", async (c) => {
    const t0 = Date.now();
    const req = c.req.raw;
    const facts: Asked & { token?: string } = { method: undefined };
    const done = (status: number, outcome: string) =>
      deps.log({ token: facts.token, rpc: facts.method, tool: facts.tool, repo: facts.repo, status, ms: Date.now() - t0, outcome });
    const refuse = (status: number, code: string, message: string, headers?: Record<string, string>) => {
      done(status, code);
      return refusal(status, code, message, headers);
    };
    const host = req.headers.get("host") ?? "";
    if (deps.hosts && !deps.hosts.has(hostName(host))) return refuse(403, "FORBIDDEN_HOST", `This lore server does not answer for the host "${host.slice(0, 100)}"; add it with --allow-host if it is this server's name.`);
    const origin = req.headers.get("origin");
    if (origin !== null && !originAllowed(origin, deps)) return refuse(403, "FORBIDDEN_ORIGIN", `This lore server does not answer pages from ${origin.slice(0, 100)}; add it with --allow-origin if you trust it.`);
    const token = caller(req, deps);
    if (token === undefined) return refuse(401, "UNAUTHORIZED", "This lore server needs a bearer token it knows: send Authorization: Bearer TOKEN (lore serve token add NAME makes one).");
    facts.token = token;
    const wait = deps.rate.take(token);
    if (wait > 0) return refuse(429, "RATE_LIMITED", `Too many requests for this token; try again in ${wait} s.`, { "retry-after": String(wait) });
    if (req.method !== "POST") return refuse(405, "METHOD_NOT_ALLOWED", "This lore server is stateless: it answers POST /mcp only (no SSE stream to open, no session to end).", { allow: "POST" });
    const body = await readBody(req, MAX_BODY_BYTES, deps.clientTimeoutMs);
    if ("status" in body)
      return body.status === 413
        ? refuse(413, "BODY_TOO_LARGE", `A request to this lore server may carry up to ${MAX_BODY_BYTES / 1024 / 1024} MB.`, { connection: "close" })
        : refuse(408, "CLIENT_TOO_SLOW", `The request body did not arrive within ${deps.clientTimeoutMs / 1000} s.`, { connection: "close" });
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch {
      return refuse(400, "PARSE_ERROR", "The request body is not JSON: send one JSON-RPC message.");
    }
    // Checked here rather than by the SDK, so that this refusal too carries lore's code.
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    const isMessage = (m: unknown) => isJSONRPCRequest(m) || isJSONRPCNotification(m) || isJSONRPCResponse(m) || isJSONRPCErrorResponse(m);
    if (messages.length === 0 || !messages.every(isMessage))
      return refuse(400, "INVALID_REQUEST", 'The request body is JSON but not a JSON-RPC 2.0 message: send jsonrpc "2.0", a method name, and an id for a request.');
    Object.assign(facts, whatIsAsked(parsed));
    let logged = false;
    const sent = (msg: JSONRPCMessage) => {
      const outcome = outcomeOf(msg);
      if (outcome !== undefined && !logged) {
        logged = true;
        done(200, outcome);
      }
    };
    const res = await deps.answer(req, parsed, token);
    // A notification's 202, or an answer cut before its result: the HTTP status says how it ended.
    return watchMessages(res, sent, () => {
      if (!logged) {
        logged = true;
        done(res.status, res.status < 300 ? "ok" : `HTTP_${res.status}`);
      }
    });
  });
  app.notFound((c) => c.json({ error: { code: "NOT_FOUND", message: "lore serve answers POST /mcp and GET /healthz." } }, 404));
  return app;
}

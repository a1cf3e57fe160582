/**
 * The one place lore serve meets the MCP SDK's HTTP face: SDK 2's createMcpHandler, a fresh server
 * per request from lore's one factory (no session: any replica answers any request), for clients of
 * 2026-07-28 and, through its stateless fallback, 2025-06-18 and 2025-11-25.
 */
import { createMcpHandler, type JSONRPCMessage } from "@modelcontextprotocol/server";
import type { ToolDeps } from "../mcp/call-tool.ts";
import { createServer } from "../mcp/server.ts";
import { MAX_BODY_BYTES } from "./body.ts";

/** Answers one request to /mcp whose body serve read and parsed itself (its own limits, its own errors). */
export type AnswerMcp = (req: Request, body: unknown, token: string) => Promise<Response>;

export function mcpEndpoint(deps: ToolDeps, instructions: string): AnswerMcp {
  const mcp = createMcpHandler((ctx) => createServer(deps, ctx, instructions), {
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: (err) => deps.log(`lore serve: ${err.message}`),
  });
  // The token's name rides as authInfo's clientId (never the token): what the SDK hands a server's handlers.
  return (req, body, token) => mcp.fetch(req, { parsedBody: body, authInfo: { token: "", clientId: token, scopes: [] } });
}

/**
 * The response as the client gets it, with each JSON-RPC message in it shown to `seen` as it goes by
 * (a JSON body, or an SSE stream's data lines), then `ended`: the access log's outcome without the SDK's internals.
 */
export function watchMessages(res: Response, seen: (msg: JSONRPCMessage) => void, ended: () => void): Response {
  const type = res.headers.get("content-type") ?? "";
  if (!res.body || !(type.includes("application/json") || type.includes("text/event-stream"))) {
    ended();
    return res;
  }
  const [client, mine] = res.body.tee();
  const sse = type.includes("text/event-stream");
  void (async () => {
    const decoder = new TextDecoder();
    let text = "";
    const take = (json: string) => {
      try {
        const msg = JSON.parse(json) as JSONRPCMessage | JSONRPCMessage[];
        for (const m of Array.isArray(msg) ? msg : [msg]) seen(m);
      } catch {
        // Not a message (a keepalive comment's neighbour, a cut stream): nothing to log.
      }
    };
    try {
      const reader = mine.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        if (!sse) continue;
        // SSE events end with a blank line; each carries its message on data: lines.
        let cut: number;
        while ((cut = text.indexOf("\n\n")) >= 0) {
          const event = text.slice(0, cut);
          text = text.slice(cut + 2);
          const data = event.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart());
          if (data.length) take(data.join("\n"));
        }
      }
      if (!sse) take(text);
    } catch {
      // The client hung up: the log says what was sent until then.
    } finally {
      ended();
    }
  })();
  return new Response(client, { status: res.status, statusText: res.statusText, headers: res.headers });
}

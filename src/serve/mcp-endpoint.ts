/**
 * The one place lore serve meets the MCP SDK's HTTP transport: a fresh server and stateless transport
 * per request (no session: any replica answers any request). SDK 1's web-standard transport today;
 * after the move to SDK 2 this file becomes @modelcontextprotocol/hono's handler, and nothing else changes.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ToolDeps } from "../mcp/call-tool.ts";
import { createServer } from "../mcp/server.ts";

/** Answers one POST to /mcp whose body is already read and parsed; `sent` sees each message that goes back (for the log). */
export async function answerMcp(req: Request, body: unknown, deps: ToolDeps, sent: (msg: JSONRPCMessage) => void): Promise<Response> {
  const server = createServer(deps);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  const send = transport.send.bind(transport);
  transport.send = (msg, options) => {
    sent(msg);
    return send(msg, options);
  };
  // A client that hangs up mid-answer: the transport and server go; the question's job ends at its deadline.
  req.signal.addEventListener("abort", () => void server.close().catch(() => {}), { once: true });
  return transport.handleRequest(req, { parsedBody: body });
}

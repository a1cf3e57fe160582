/** `lore mcp` on stdin/stdout: the SDK's serveStdio picks the protocol era from the client's first message; lore answers what was asked before it goes. */
import { PassThrough } from "node:stream";
import { serveStdio as serveEras, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { ToolDeps } from "./call-tool.ts";
import { createServer } from "./server.ts";

/**
 * Counts the requests read but not yet answered, so that a client which sends its calls and
 * then closes stdin still gets every answer before the server goes.
 */
function trackAnswers(transport: StdioServerTransport): () => Promise<void> {
  const open = new Set<string | number>();
  let drained: (() => void) | undefined;
  const receive = transport.onmessage;
  transport.onmessage = (msg) => {
    if ("method" in msg && "id" in msg) open.add(msg.id);
    receive?.(msg);
  };
  const send = transport.send.bind(transport);
  transport.send = async (msg) => {
    await send(msg);
    if (!("method" in msg) && "id" in msg && msg.id !== undefined && open.delete(msg.id) && open.size === 0) drained?.();
  };
  return () => (open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (drained = resolve)));
}

/** Serves on stdin/stdout until the client closes stdin and every request read is answered. */
export async function serveStdio(deps: ToolDeps): Promise<void> {
  // The SDK's transport closes (and aborts what is in flight) when its stdin ends, so it reads
  // a copy of stdin that lore ends only once every question asked has its answer.
  const input = new PassThrough();
  process.stdin.pipe(input, { end: false });
  const transport = new StdioServerTransport(input, process.stdout);
  const ended = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  // One server for the connection, of the era its first message names (initialize: 2025; a request whose _meta names 2026-07-28: 2026).
  const handle = serveEras((ctx) => createServer(deps, ctx), { transport, onerror: (err) => deps.log(`lore mcp: ${err.message}`) });
  // serveStdio has set its handlers on the transport by now; the counting (and a broken stdout's close) wraps them.
  const answered = trackAnswers(transport);
  const entryClose = transport.onclose;
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => {
      entryClose?.();
      resolve();
    };
  });
  await Promise.race([ended, closed]);
  // Answer what was asked before the hang-up (a minute at most: a stuck call must not keep us alive).
  await Promise.race([answered(), new Promise((resolve) => setTimeout(resolve, 60_000).unref())]);
  input.end();
  await handle.close().catch(() => {});
}

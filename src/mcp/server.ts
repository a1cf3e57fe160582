/** The MCP server: the SDK's low-level Server with tools/list and tools/call answered from the registry. */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, RootsListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { VERSION } from "../version.ts";
import { callTool, type ToolDeps } from "./call-tool.ts";
import { didYouMean } from "../nearest.ts";
import { queryForTool, toolListings } from "./tools.ts";
import type { CallExtra } from "./deadline.ts";

/** Sent once at initialize; clients put it beside the tool list so the agent knows when lore beats git. */
const INSTRUCTIONS =
  "lore answers questions about this git repository's history from an index, in milliseconds, as compact JSON. Prefer it to running git: lore_blame instead of git blame, lore_history instead of git log -- FILE, lore_log instead of git log (-- DIR, main..HEAD as not: main), lore_show instead of git show (REV:PATH too), lore_compare instead of git diff main...HEAD --stat, lore_intent instead of git blame -L + git show (why lines exist), lore_cochange before editing a file (what else usually changes with it), lore_review before you commit or finish a task (the commits and fixes behind the lines your change deletes, files it may have missed, whom to ask; base: main for a branch), lore_hotspots to orient, lore_contributors for who knows the code, lore_owners for ownership and the truck factor, lore_status when an answer looks stale, lore_changes for what you changed in the work tree since a snapshot or a time (lore_restore puts files back), lore_git for any other read-only git command. Paths are relative to the repository root, or absolute: a path in a linked worktree (.claude/worktrees/NAME, ../feat) is answered in that worktree, at its HEAD. Every tool takes until (answer as of a revision; default HEAD) and repo (another repository's or worktree's folder: under the server's starting folder or the client's roots, a worktree of its repository, or listed in LORE_MCP_ALLOWED_REPOS). A list cut short (by size, limit or a deadline: partial, progress says how far) ends with a continue token: ask again with the same arguments and continue: TOKEN for the items after, nothing repeated. Code search before the change index is built, history with lines (git log -L), and blame of files not blamed yet walk git; lore_status lists which (walksGit).";

/**
 * The low-level Server rather than McpServer.registerTool: McpServer turns a bad argument into
 * its own "Input validation error" text, where every lore face says "CODE: message".
 */
export function createServer(deps: ToolDeps): Server {
  const server = new Server({ name: "lore", title: "lore: git history for agents", version: VERSION }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  // Built on first use: a client's health check (initialize, then hang up) never pays for the schemas.
  let listings: ReturnType<typeof toolListings> | undefined;
  const tools = () => (listings ??= toolListings());
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const def = queryForTool(request.params.name);
    if (!def) throw new McpError(ErrorCode.InvalidParams, `lore has no tool "${request.params.name}"; it has ${tools().map((t) => t.name).join(", ")}.${didYouMean(request.params.name, tools().map((t) => t.name))}`);
    return callTool(def, request.params.arguments, deps, { _meta: request.params._meta, sendNotification: extra.sendNotification as CallExtra["sendNotification"] });
  });
  // A client with roots (Claude Code: the folder the agent works in, a worktree included) is asked for them, and again when they change.
  const askRoots = () => {
    if (server.getClientCapabilities()?.roots) deps.scope.askRoots(async () => (await server.listRoots(undefined, { timeout: 5000 })).roots.map((r) => r.uri));
  };
  server.oninitialized = askRoots;
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => askRoots());
  // Garbage lines and unknown messages arrive here; the server logs them and keeps serving.
  server.onerror = (err) => deps.log(`lore mcp: ${err.message}`);
  return server;
}

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
  const server = createServer(deps);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  await server.connect(transport);
  const answered = trackAnswers(transport);
  await closed;
  // Answer what was asked before the hang-up (a minute at most: a stuck call must not keep us alive).
  await Promise.race([answered(), new Promise((resolve) => setTimeout(resolve, 60_000).unref())]);
  await server.close().catch(() => {});
}

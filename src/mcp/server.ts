/** The MCP server: one SDK 2 low-level Server per connection or request, tools/list and tools/call answered from the registry. */
import { ProtocolError, ProtocolErrorCode, Server, type McpRequestContext, type Tool } from "@modelcontextprotocol/server";
import { VERSION } from "../version.ts";
import { callTool, type ToolDeps } from "./call-tool.ts";
import { didYouMean } from "../nearest.ts";
import { queryForTool, toolListings } from "./tools.ts";

/** Sent at initialize (2025) or server/discover (2026-07-28); clients put it beside the tool list so the agent knows when lore beats git. */
const INSTRUCTIONS =
  "lore answers questions about this git repository's history from an index, in milliseconds, as compact JSON. Prefer it to running git: lore_blame instead of git blame, lore_history instead of git log -- FILE, lore_log instead of git log (-- DIR, main..HEAD as not: main), lore_show instead of git show (REV:PATH too), lore_compare instead of git diff main...HEAD --stat, lore_intent instead of git blame -L + git show (why lines exist), lore_cochange before editing a file (what else usually changes with it), lore_review before you commit or finish a task (the commits and fixes behind the lines your change deletes, files it may have missed, whom to ask; base: main for a branch), lore_hotspots to orient, lore_contributors for who knows the code, lore_owners for ownership and the truck factor, lore_status when an answer looks stale, lore_changes for what you changed in the work tree since a snapshot or a time (lore_restore puts files back), lore_git for any other read-only git command. Paths are relative to the repository root, or absolute: a path in a linked worktree (.claude/worktrees/NAME, ../feat) is answered in that worktree, at its HEAD. Every tool takes until (answer as of a revision; default HEAD) and repo (another repository's or worktree's folder: under the server's starting folder or the client's roots, a worktree of its repository, or listed in LORE_MCP_ALLOWED_REPOS). A list cut short (by size, limit or a deadline: partial, progress says how far) ends with a continue token: ask again with the same arguments and continue: TOKEN for the items after, nothing repeated. Code search before the change index is built, history with lines (git log -L), and blame of files not blamed yet walk git; lore_status lists which (walksGit).";

/**
 * Built on first use and shared by every instance: a client's health check never pays for the
 * schemas, and an HTTP endpoint that builds a server per request builds them once.
 */
let listings: ReturnType<typeof toolListings> | undefined;
const tools = () => (listings ??= toolListings());

/**
 * A server for one connection (stdio) or one request (Streamable HTTP): the factory both of
 * the SDK's serving entries take (serveStdio, createMcpHandler), for clients of 2025-06-18,
 * 2025-11-25 and 2026-07-28 alike.
 * `instructions` are lore mcp's unless a transport serves other rules (lore serve: no work tree).
 * The low-level Server rather than McpServer.registerTool: McpServer turns a bad argument into
 * its own "Input validation error" text, where every lore face says "CODE: message".
 */
export function createServer(deps: ToolDeps, _ctx?: McpRequestContext, instructions = INSTRUCTIONS): Server {
  const server = new Server({ name: "lore", title: "lore: git history for agents", version: VERSION }, { capabilities: { tools: { listChanged: false } }, instructions });
  // The listings are JSON Schema objects already (tools.ts); the SDK's type only spells that out.
  server.setRequestHandler("tools/list", () => ({ tools: tools() as Tool[] }));
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const def = queryForTool(request.params.name);
    const names = () => tools().map((t) => t.name);
    if (!def) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `lore has no tool "${request.params.name}"; it has ${names().join(", ")}.${didYouMean(request.params.name, names())}`);
    const result = await callTool(def, request.params.arguments, deps, { _meta: ctx.mcpReq._meta, sendNotification: (n) => ctx.mcpReq.notify(n) });
    // The SDK's own projection for the era served (it leaves lore's object-shaped answers as they are).
    return server.projectCallToolResult(result, tools().find((t) => t.name === request.params.name)?.outputSchema);
  });
  // A 2025 client with roots (Claude Code: the folder the agent works in, a worktree included) is
  // asked for them after initialize, and again when they change. 2026-07-28 has no initialize and
  // deprecates roots (SEP-2577: "pass paths as tool arguments or configuration"): such a client's
  // calls read the starting folder, or what their repo argument and absolute paths name.
  const askRoots = () => {
    if (server.getClientCapabilities()?.roots) deps.scope.askRoots(async () => (await server.listRoots(undefined, { timeout: 5000 })).roots.map((r) => r.uri));
  };
  server.oninitialized = askRoots;
  server.setNotificationHandler("notifications/roots/list_changed", async () => askRoots());
  // Garbage lines and unknown messages arrive here; the server logs them and keeps serving.
  server.onerror = (err) => deps.log(`lore mcp: ${err.message}`);
  return server;
}

/**
 * MCP's side of deadlines: every call is answered within LORE_MCP_DEADLINE (default 5 s; "none"
 * waits for the whole answer), and a call whose client gave a progressToken hears how far the
 * question got each second it runs longer than one.
 */
import { randomBytes } from "node:crypto";
import { rpcCall } from "../client/rpc-client.ts";
import { daemonPaths } from "../client/socket-path.ts";
import { parseDeadline } from "../queries/partial.ts";

const DEFAULT_MS = 5000;
const FIRST_AFTER_MS = 1000;
const EVERY_MS = 1000;

/** The deadline of every tool call, in ms (undefined: none); a bad LORE_MCP_DEADLINE falls back to the default, said once. */
export function mcpDeadline(env = process.env, log: (line: string) => void = () => {}): number | undefined {
  const v = env.LORE_MCP_DEADLINE?.trim();
  if (v === undefined || v === "") return DEFAULT_MS;
  if (/^(none|off|0)$/i.test(v)) return undefined;
  try {
    return parseDeadline(v);
  } catch {
    log(`lore mcp: LORE_MCP_DEADLINE=${JSON.stringify(v)} is not a time such as 5s or 5000; using 5 s`);
    return DEFAULT_MS;
  }
}

/** What the SDK hands a request handler that progress needs. */
export interface CallExtra {
  _meta?: { progressToken?: string | number };
  sendNotification?: (n: { method: "notifications/progress"; params: Record<string, unknown> }) => Promise<void>;
}

/** How far a call got, as the daemon's progress method says it. */
export type Progress = { message: string; done?: number; of?: number };
/** Where to ask how far the call with a ticket got, when not the daemon's socket (lore serve answers in its own process). */
export type ProgressOf = (ticket: string) => Promise<Progress | null>;

/**
 * Runs `call` with a ticket the daemon knows it by; while it runs past a second, asks the daemon how
 * far it got and tells the client. Nothing is asked when the client gave no progressToken.
 */
export async function withProgress<T>(extra: CallExtra | undefined, noDaemon: boolean, call: (ticket?: string) => Promise<T>, progressOf?: ProgressOf): Promise<T> {
  const token = extra?._meta?.progressToken;
  if (token === undefined || !extra?.sendNotification || (noDaemon && !progressOf)) return call();
  const ask = progressOf ?? ((ticket: string) => rpcCall(daemonPaths().socket, "progress", { ticket }) as Promise<Progress | null>);
  const ticket = randomBytes(8).toString("hex");
  let done = false;
  let count = 0;
  const tell = async () => {
    while (!done) {
      const p = await ask(ticket).catch(() => null);
      if (done) break;
      // progress must grow with every notification: the count of them where the work gives none.
      count = Math.max(count + 1, p?.done ?? 0);
      if (p) await extra.sendNotification!({ method: "notifications/progress", params: { progressToken: token, progress: count, ...(p.of ? { total: Math.max(p.of, count) } : {}), message: p.message } }).catch(() => {});
      await new Promise((r) => setTimeout(r, EVERY_MS));
    }
  };
  const timer = setTimeout(() => void tell(), FIRST_AFTER_MS);
  try {
    return await call(ticket);
  } finally {
    done = true;
    clearTimeout(timer);
  }
}

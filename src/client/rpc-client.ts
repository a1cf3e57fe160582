/** Talks to the daemon over its socket: one JSON-RPC call, or a health check, with its errors turned back into LoreErrors. */
import { LoreError, type ErrorCode } from "../errors.ts";
import { runtime } from "../runtime/index.ts";
import { buildTag } from "./build-id.ts";

export interface Health {
  pid: number;
  version: string;
  commit: string;
  uptimeS: number;
}

/** Nothing answered on the socket (no daemon, a stale socket, or the daemon died mid-call). */
export class DaemonUnreachable extends Error {}

/** The daemon answering is another build; it told us which. */
export class DaemonMismatch extends Error {
  constructor(readonly health: Health) {
    super(`the daemon is lore ${health.version} (${health.commit})`);
  }
}

async function request(socket: string, method: string, path: string, body?: string, timeoutMs?: number): Promise<{ status: number; body: string }> {
  try {
    return await runtime.requestUnix(socket, method, path, body, timeoutMs);
  } catch (err) {
    throw new DaemonUnreachable(err instanceof Error ? err.message : String(err), { cause: err });
  }
}

/** The daemon's /health, or null when nothing answers within `timeoutMs`. */
export async function health(socket: string, timeoutMs = 1000): Promise<Health | null> {
  try {
    const res = await request(socket, "GET", "/health", undefined, timeoutMs);
    return res.status === 200 ? (JSON.parse(res.body) as Health) : null;
  } catch {
    return null;
  }
}

let nextId = 1;

export interface CallOptions {
  timeoutMs?: number;
  /** Skip the build check (to ask a daemon of another version to shut down). */
  anyVersion?: boolean;
}

/** Calls `method` with `params`; the daemon refuses (409) a client of another build, so every call checks the version for free. */
export async function rpcCall(socket: string, method: string, params: Record<string, unknown>, opts: CallOptions = {}): Promise<unknown> {
  const id = nextId++;
  const path = opts.anyVersion ? "/rpc" : `/rpc?client=${encodeURIComponent(buildTag())}`;
  const res = await request(socket, "POST", path, JSON.stringify({ jsonrpc: "2.0", id, method, params }), opts.timeoutMs);
  if (res.status === 409) throw new DaemonMismatch(JSON.parse(res.body) as Health);
  let msg: { result?: unknown; error?: { code: number; message: string; data?: { code?: string } } };
  try {
    msg = JSON.parse(res.body);
  } catch {
    throw new LoreError("DAEMON_UNAVAILABLE", `The daemon sent a reply lore cannot read (HTTP ${res.status}); run lore daemon stop and ask again.`);
  }
  if (msg.error) throw new LoreError((msg.error.data?.code ?? "INTERNAL") as ErrorCode, msg.error.message);
  return msg.result;
}

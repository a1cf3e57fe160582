/** Straight to the daemon's socket: JSON-RPC POST /rpc with nothing of the CLI in between, for its own answer time and throughput. */
import { daemonPaths } from "../../src/client/socket-path.ts";
import { percentile, summarize, type Sampled } from "./timing.ts";

let nextId = 1;

/** The socket of the daemon serving $LORE_HOME (set it before calling). */
export function socketPath(): string {
  return daemonPaths().socket;
}

/** One call; throws on a transport or JSON-RPC error. */
export async function rpc(socket: string, method: string, params: Record<string, unknown>): Promise<unknown> {
  const res = await fetch("http://localhost/rpc", {
    unix: socket,
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
    headers: { "content-type": "application/json" },
  } as RequestInit);
  const msg = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (msg.error) throw new Error(`${method}: ${msg.error.message}`);
  return msg.result;
}

/** The params of call number i: the same each time, or varied (to miss the daemon's answer cache). */
export type Params = Record<string, unknown> | ((i: number) => Record<string, unknown>);

const paramsOf = (p: Params, i: number) => (typeof p === "function" ? p(i) : p);

/** p50/p99 of `calls` sequential calls (after `warmups`), stopping early after `budgetMs`. */
export async function latency(socket: string, method: string, params: Params, calls: number, warmups = 20, budgetMs = 20_000): Promise<Sampled> {
  let i = 0;
  for (; i < warmups; i++) await rpc(socket, method, paramsOf(params, i));
  const samples: number[] = [];
  const deadline = performance.now() + budgetMs;
  while (samples.length < calls && performance.now() < deadline) {
    const p = paramsOf(params, i++);
    const t = performance.now();
    await rpc(socket, method, p);
    samples.push(performance.now() - t);
  }
  return summarize(samples);
}

/** Queries per second with `clients` calls always in flight, for `durationMs`. */
export async function throughput(socket: string, method: string, params: Params, clients: number, durationMs: number): Promise<{ qps: number; p50: number; p99: number; errors: number }> {
  const lat: number[] = [];
  let errors = 0;
  const started = performance.now();
  const stopAt = started + durationMs;
  let n = 0;
  const client = async () => {
    while (performance.now() < stopAt) {
      const p = paramsOf(params, n++);
      const t = performance.now();
      try {
        await rpc(socket, method, p);
        lat.push(performance.now() - t);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  const elapsed = performance.now() - started;
  return { qps: (lat.length * 1000) / elapsed, p50: percentile(lat, 50), p99: percentile(lat, 99), errors };
}

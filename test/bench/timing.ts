/** Timing for the benchmarks: a process timed from spawn to exit (start-up included), percentiles, alternation. */
// Bun.spawn rather than node:child_process: the benchmarks run under Bun only, and its spawn adds the least to every sample.

export interface ProcessResult {
  ms: number;
  code: number;
  stdout: Uint8Array;
  bytes: number;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string>;
  /** Read stdout but keep only its length (for outputs too big to hold). */
  discard?: boolean;
}

async function drain(stream: ReadableStream<Uint8Array>): Promise<number> {
  let n = 0;
  for await (const chunk of stream) n += chunk.length;
  return n;
}

/** Runs one process to its end and says how long that took, output read in full. */
export async function timeProcess(argv: string[], opts: RunOptions): Promise<ProcessResult> {
  const started = performance.now();
  const proc = Bun.spawn({ cmd: argv, cwd: opts.cwd, env: opts.env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [out, err] = await Promise.all([opts.discard ? drain(proc.stdout) : new Response(proc.stdout).bytes(), new Response(proc.stderr).text()]);
  const code = await proc.exited;
  const ms = performance.now() - started;
  return typeof out === "number" ? { ms, code, stdout: new Uint8Array(0), bytes: out, stderr: err } : { ms, code, stdout: out, bytes: out.length, stderr: err };
}

/** Like timeProcess, but a non-zero exit is an error naming the command. */
export async function mustRun(argv: string[], opts: RunOptions): Promise<ProcessResult> {
  const r = await timeProcess(argv, opts);
  if (r.code !== 0) throw new Error(`${argv.join(" ")} exited with ${r.code}: ${r.stderr.trim().slice(0, 500)}`);
  return r;
}

/** Nearest-rank percentile (p in 0..100) of the samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export const median = (samples: readonly number[]) => percentile(samples, 50);

export interface Sampled {
  samples: number[];
  p50: number;
  p99: number;
}

export function summarize(samples: number[]): Sampled {
  return { samples, p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/**
 * Runs `a` and `b` in alternation (a, b, a, b, ...) so drift in the machine's load hits both alike;
 * the first `warmups` rounds are thrown away.
 */
export async function alternate(a: () => Promise<number>, b: () => Promise<number>, runs: number, warmups: number): Promise<{ a: Sampled; b: Sampled }> {
  const sa: number[] = [];
  const sb: number[] = [];
  for (let i = 0; i < warmups + runs; i++) {
    const ta = await a();
    const tb = await b();
    if (i >= warmups) {
      sa.push(ta);
      sb.push(tb);
    }
  }
  return { a: summarize(sa), b: summarize(sb) };
}

/** Times an async step `runs` times after `warmups` untimed ones. */
export async function repeat(step: () => Promise<unknown>, runs: number, warmups = 0): Promise<Sampled> {
  const samples: number[] = [];
  for (let i = 0; i < warmups + runs; i++) {
    const t = performance.now();
    await step();
    if (i >= warmups) samples.push(performance.now() - t);
  }
  return summarize(samples);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The fault half of bench:serve (issue 42 item 3): while the load's clients go on asking, each fault is
 * injected in turn — a hang-up mid-answer, a body over the limit, malformed JSON-RPC, a wrong or missing
 * token, a foreign Origin, the source taken away, a SIGTERM and restart — and the table says what the
 * faulty client got and whether any other client's call failed or got a wrong answer meanwhile.
 */
import { Database } from "bun:sqlite";
import { readdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { ask, httpClient, startServe, type Asker, type Question, type ServeProcess, type ToolResult } from "./serve-kit.ts";

/** An answer as compared with the one asked alone: its lean JSON without the continue token (a new one each time). */
export function answerKey(r: ToolResult): string {
  const { continue: _token, ...rest } = r.structuredContent ?? {};
  return JSON.stringify(rest);
}

type Outcome = "ok" | "partial" | "wrong" | "connection" | "error";
interface Call {
  t0: number;
  t1: number;
  outcome: Outcome;
  message?: string;
}

/** What a client sees while no server listens, or when the server ends the connection: not an answer, right or wrong. */
const CONNECTION = /ECONNREFUSED|ECONNRESET|ConnectionRefused|Unable to connect|socket connection was closed|fetch failed|connection.*(closed|reset|refused)/i;

/** The clients asking the mix without pause, each call's outcome and time kept. */
class Load {
  readonly calls: Call[] = [];
  private running = true;
  private readonly done: Promise<unknown>;

  constructor(clients: Asker[], mix: Question[], reference: Map<string, string>) {
    this.done = Promise.all(
      clients.map(async (c, i) => {
        for (let n = i; this.running; n++) {
          const q = mix[n % mix.length]!;
          const t0 = performance.now();
          const r = await ask(c, q);
          const outcome: Outcome = r.error ? (CONNECTION.test(r.error) ? "connection" : "error") : r.result!.structuredContent?.partial ? "partial" : answerKey(r.result!) === reference.get(JSON.stringify(q)) ? "ok" : "wrong";
          this.calls.push({ t0, t1: performance.now(), outcome, ...(r.error ? { message: r.error } : {}) });
          // A client that cannot connect tries again a little later, as agents' clients do.
          if (outcome === "connection") await Bun.sleep(100);
        }
      }),
    );
  }

  /** The calls that ended within [from, to]. */
  between(from: number, to: number): Call[] {
    return this.calls.filter((c) => c.t1 >= from && c.t1 <= to);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }
}

/** A refusal as the faulty client read it: status, the error's code and sentence. */
async function refusal(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const e = JSON.parse(text).error;
    return `${res.status} ${e.data?.code ?? e.code}: ${e.message}`;
  } catch {
    return `${res.status}: ${text.slice(0, 120)}`;
  }
}

/** The served index's file and what it holds: the same inode, head and commits after a restart mean nothing was rebuilt. */
function indexFacts(home: string): { ino: number; head: string; commits: number } {
  const file = join(home, readdirSync(home, { recursive: true, encoding: "utf8" }).find((f) => f.endsWith("index.db"))!);
  const db = new Database(file, { readonly: true });
  try {
    const head = (db.query("SELECT value FROM meta WHERE key = 'indexedHead'").get() as { value: string }).value;
    const commits = (db.query("SELECT count(*) AS n FROM commits").get() as { n: number }).n;
    return { ino: statSync(file).ino, head, commits };
  } finally {
    db.close();
  }
}

export interface FaultSetup {
  clients: Asker[];
  mix: Question[];
  reference: Map<string, string>;
  token: string;
  home: string;
  source: string;
  name: string;
  served: ServeProcess;
  fetchEvery: string;
}

export async function faultPhase(s: FaultSetup): Promise<{ table: string; failures: number; served: ServeProcess }> {
  let served = s.served;
  const load = new Load(s.clients, s.mix, s.reference);
  const rows: string[] = [];
  let failures = 0;
  /** A POST as a client sends one; a header given as "" is left out. */
  const post = (body: string, headers: Record<string, string> = {}, signal?: AbortSignal) => {
    const all = { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${s.token}`, ...headers };
    return fetch(served.url, { method: "POST", body, signal, headers: Object.fromEntries(Object.entries(all).filter(([, v]) => v !== "")) });
  };
  const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: s.mix[5]![0], arguments: s.mix[5]![1] } });
  /** Runs `inject` 10 times over at least a second; the row says what it got and how the others fared meanwhile. */
  const fault = async (label: string, inject: () => Promise<string>, expected: RegExp) => {
    const t0 = performance.now();
    const got = new Set<string>();
    for (let i = 0; i < 10; i++) got.add(await inject());
    await Bun.sleep(Math.max(0, 1000 - (performance.now() - t0)));
    const others = load.between(t0, performance.now());
    const failed = others.filter((c) => c.outcome !== "ok" && c.outcome !== "partial");
    const clear = [...got].every((g) => expected.test(g));
    if (!clear || failed.length) failures++;
    rows.push(`| ${label} | ${[...got].join("; ").replaceAll("|", "\\|")}${clear ? "" : " (not the error expected)"} | ${others.length} | ${failed.length} |`);
  };

  await fault(
    "hangs up 5 ms into an answer",
    async () => {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 5);
      return post(call, {}, ac.signal).then((r) => r.text(), (e: Error) => e.name).then((r) => (r === "AbortError" ? "its own hang-up (AbortError)" : "an answer before it hung up"));
    },
    /hang-up|answer before/,
  );
  await fault("body of 1.1 MB", async () => refusal(await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(1_100_000) } }))), /^413 BODY_TOO_LARGE/);
  await fault("body not JSON", async () => refusal(await post("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ")), /^400 PARSE_ERROR/);
  await fault("JSON-RPC of the wrong shape (`method: 42`)", async () => refusal(await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: 42 }))), /^4\d\d /);
  await fault("wrong token", async () => refusal(await post(call, { authorization: "Bearer not-a-token-of-this-server" })), /^401 UNAUTHORIZED/);
  await fault("no token", async () => refusal(await post(call, { authorization: "" })), /^401 UNAUTHORIZED/);
  await fault("foreign Origin", async () => refusal(await post(call, { origin: "https://evil.example" })), /^403 FORBIDDEN_ORIGIN/);

  // The source taken away: the server answers from its own clone, and logs each failed fetch.
  const log = () => readFileSync(join(s.home, "access.log"), "utf8");
  let t0 = performance.now();
  const logged = log().length;
  renameSync(s.source, `${s.source}.gone`);
  let fetchFailed: string | undefined;
  for (let i = 0; i < 100 && !fetchFailed; i++) {
    await Bun.sleep(100);
    fetchFailed = log().slice(logged).split("\n").find((l) => l.includes('"event":"fetch"') && l.includes('"outcome"'));
  }
  const probe = await httpClient(served.url, s.token, true);
  const asked = await ask(probe, s.mix[0]!);
  renameSync(`${s.source}.gone`, s.source);
  const f = fetchFailed ? JSON.parse(fetchFailed) : undefined;
  const answered = !asked.error && answerKey(asked.result!) === s.reference.get(JSON.stringify(s.mix[0]));
  let others = load.between(t0, performance.now());
  let failed = others.filter((c) => c.outcome !== "ok" && c.outcome !== "partial");
  if (!f || !answered || failed.length) failures++;
  rows.push(`| the source folder taken away for ${((performance.now() - t0) / 1000).toFixed(1)} s | ${answered ? "answered from the server's clone, as before" : `NOT answered: ${asked.error}`}; the failed fetch logged: ${f ? `${f.outcome}: ${f.message}` : "NOTHING"} | ${others.length} | ${failed.length} |`);
  await probe.close();

  // SIGTERM under load, then the same command on the same port and data folder.
  const before = indexFacts(s.home);
  const port = Number(new URL(served.url).port);
  t0 = performance.now();
  await served.stop();
  const stopped = performance.now();
  served = await startServe(s.source, s.name, s.home, port, s.fetchEvery);
  const listening = performance.now();
  const again = await httpClient(served.url, s.token, true);
  const first = await ask(again, s.mix[5]!);
  const firstMs = first.ms;
  await again.close();
  await Bun.sleep(2000);
  await load.stop();
  const after = indexFacts(s.home);
  others = load.between(t0, performance.now());
  const gap = others.filter((c) => c.outcome === "connection");
  failed = others.filter((c) => c.outcome === "error" || c.outcome === "wrong");
  const back = load.calls.filter((c) => c.t0 > stopped && c.outcome === "ok").sort((a, b) => a.t1 - b.t1)[0];
  const firstPass = /: indexed [0-9a-f]{12} in \d+ ms/.test(served.stderr());
  const kept = before.ino === after.ino && before.head === after.head && before.commits === after.commits && !firstPass;
  const refused = gap.filter((c) => /ECONNREFUSED|Unable to connect/.test(c.message!)).length;
  // A reset call sent before the SIGTERM may have been cut mid-answer; one sent after met a keep-alive connection as the server closed it.
  const resets = gap.filter((c) => !/ECONNREFUSED|Unable to connect/.test(c.message!));
  const resetBefore = resets.filter((c) => c.t0 < t0);
  if (failed.length || resetBefore.length || !kept || first.error || !back) failures++;
  rows.push(
    `| SIGTERM during load, then started again (same port and data) | stopped in ${Math.round(stopped - t0)} ms, listening ${((listening - stopped) / 1000).toFixed(1)} s later; its first answer (${s.mix[5]![0]}) in ${Math.round(firstMs)} ms${first.error ? ` FAILED: ${first.error}` : ""}; the clients answered again ${back ? `${((back.t1 - t0) / 1000).toFixed(1)} s after the SIGTERM` : "NEVER"}; in the gap ${refused} calls were refused a connection (ECONNREFUSED) and ${resets.length} sent on a kept-alive connection were closed unanswered as the old process exited (ECONNRESET; ${resetBefore.length} of them sent before the SIGTERM); the index ${kept ? `kept: the same file, head ${after.head.slice(0, 12)}, ${after.commits.toLocaleString("en-US")} commits, no first pass` : `NOT KEPT: before ${JSON.stringify(before)}, after ${JSON.stringify(after)}${firstPass ? ", a first pass ran" : ""}`} | ${others.length} | ${failed.length} |`,
  );

  const wrong = load.calls.filter((c) => c.outcome === "wrong").length;
  if (wrong) failures++;
  const table = [
    `Faults, each injected 10 times (at least 1 s) while the ${s.clients.length} clients go on asking; "failed" counts their calls that ended in an error or a wrong answer meanwhile (a connection error while the server restarts is counted apart). ${load.calls.length.toLocaleString("en-US")} calls during the faults, ${wrong} wrong answers (each compared with the one asked alone), ${load.calls.filter((c) => c.outcome === "partial").length} cut by the deadline:`,
    "",
    "| fault | what the faulty client got | others' calls meanwhile | failed |",
    "|---|---|---:|---:|",
    ...rows,
  ].join("\n");
  return { table, failures, served };
}

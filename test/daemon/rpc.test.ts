import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { runtime } from "../../src/runtime/index.ts";
import { QUERIES } from "../../src/queries/index.ts";
import { lines, TestRepo } from "../helpers/git-repo.ts";
import { daemonHome, discardHome, loreSync } from "./daemon-helpers.ts";

let repo: TestRepo;
let home: string;
let socket: string;

async function post(body: unknown, query = ""): Promise<{ status: number; json: any }> {
  const res = await runtime.requestUnix(socket, "POST", `/rpc${query}`, typeof body === "string" ? body : JSON.stringify(body), 10_000);
  return { status: res.status, json: res.body ? JSON.parse(res.body) : null };
}

beforeAll(() => {
  home = daemonHome();
  repo = new TestRepo();
  repo.write("a.txt", lines("one", "two"));
  repo.commit("First");
  const started = loreSync(home, repo.dir, ["daemon", "start"]);
  if (started.code !== 0) throw new Error(started.stderr);
  socket = join(home, "lore.sock");
}, 60_000);

afterAll(async () => {
  await discardHome(home);
  repo.cleanup();
}, 60_000);

test("GET /health names the daemon's pid and version", async () => {
  const res = await runtime.requestUnix(socket, "GET", "/health", undefined, 5000);
  expect(res.status).toBe(200);
  const h = JSON.parse(res.body);
  expect(h.pid).toBeGreaterThan(0);
  expect(typeof h.version).toBe("string");
});

test("every question of the registry is a method, answering the same object as the CLI", async () => {
  const ping = await post({ jsonrpc: "2.0", id: 1, method: "ping" });
  expect(ping.json).toEqual({ jsonrpc: "2.0", id: 1, result: "pong" });
  const answers: Record<string, any> = {};
  // Arguments that are not a path: a git command line, a snapshot (taken by the snapshot question, asked before restore).
  const special: Record<string, () => Record<string, unknown>> = { git: () => ({ args: ["log", "-n", "1"] }), restore: () => ({ paths: ["a.txt"], from: answers.snapshot.id }), intent: () => ({ startLine: 1 }) };
  for (const q of QUERIES) {
    const params: Record<string, unknown> = { repo: repo.dir };
    // Required arguments (a revision gets HEAD, a path a.txt), and cochange's files (it needs files or changed: true).
    for (const [name, spec] of Object.entries(q.args)) if (spec.required || (q.name === "cochange" && name === "paths")) params[name] = spec.type === "integer" ? 1 : spec.type === "strings" ? ["a.txt"] : spec.text ? "HEAD" : "a.txt";
    Object.assign(params, special[q.name]?.());
    const r = await post({ jsonrpc: "2.0", id: q.name, method: q.name, params });
    expect(r.json.id).toBe(q.name);
    expect(r.json.error).toBeUndefined();
    answers[q.name] = r.json.result;
  }
  const viaRpc = (await post({ jsonrpc: "2.0", id: 2, method: "blame", params: { repo: repo.dir, path: "a.txt" } })).json.result;
  expect(loreSync(home, repo.dir, ["blame", "a.txt", "--json"]).json).toEqual(viaRpc);
});

test("a batch answers each call by id and leaves notifications unanswered", async () => {
  const r = await post([
    { jsonrpc: "2.0", id: "a", method: "ping" },
    { jsonrpc: "2.0", method: "ping" },
    { jsonrpc: "2.0", id: "b", method: "history", params: { repo: repo.dir, path: "a.txt" } },
  ]);
  expect(r.json.map((x: any) => x.id)).toEqual(["a", "b"]);
  expect(r.json[1].result.commits.length).toBe(1);
  const onlyNotes = await post([{ jsonrpc: "2.0", method: "ping" }]);
  expect(onlyNotes.status).toBe(204);
});

test("protocol errors carry JSON-RPC's codes", async () => {
  expect((await post("{not json")).json.error.code).toBe(-32700);
  expect((await post([])).json.error.code).toBe(-32600);
  expect((await post({ id: 1, method: "ping" })).json.error.code).toBe(-32600);
  expect((await post({ jsonrpc: "2.0", id: 1, method: "lore_blame" })).json.error.code).toBe(-32601);
  expect((await post({ jsonrpc: "2.0", id: 1, method: "blame", params: ["a.txt"] })).json.error.code).toBe(-32602);
});

test("lore's errors keep their stable code in data.code", async () => {
  const missing = await post({ jsonrpc: "2.0", id: 1, method: "blame", params: { repo: repo.dir, path: "nope.txt" } });
  expect(missing.json.error.code).toBe(-32000);
  expect(missing.json.error.data.code).toBe("PATH_NOT_FOUND");
  const bad = await post({ jsonrpc: "2.0", id: 2, method: "history", params: { repo: repo.dir, path: "a.txt", limit: "many" } });
  expect(bad.json.error.code).toBe(-32602);
  expect(bad.json.error.data.code).toBe("BAD_ARGUMENT");
  const relative = await post({ jsonrpc: "2.0", id: 3, method: "status", params: { repo: "." } });
  expect(relative.json.error.data.code).toBe("BAD_ARGUMENT");
  const notRepo = await post({ jsonrpc: "2.0", id: 4, method: "status", params: { repo: home } });
  expect(notRepo.json.error.data.code).toBe("NOT_A_REPO");
});

test("a client of another build is refused with 409 and the daemon's identity", async () => {
  const r = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, "?client=0.0.0%2Bother");
  expect(r.status).toBe(409);
  expect(r.json.pid).toBeGreaterThan(0);
});

test("cochange changed: true follows the work tree between two calls (never answered from the answer cache)", async () => {
  repo.write("b.txt", lines("b")).commit("b alone");
  repo.write("a.txt", lines("one", "two", "three")).write("b.txt", lines("b", "2")).commit("a and b");
  const ask = async () => (await post({ jsonrpc: "2.0", id: 1, method: "cochange", params: { repo: repo.dir, changed: true } })).json.result;
  expect((await ask()).paths).toEqual([]);
  repo.write("a.txt", lines("edited"));
  try {
    const r = await ask();
    expect(r.paths).toEqual(["a.txt"]);
    expect(r.results.map((x: any) => x.path)).toEqual(["b.txt"]);
  } finally {
    repo.git("checkout", "--", "a.txt");
  }
  expect((await ask()).paths).toEqual([]);
});

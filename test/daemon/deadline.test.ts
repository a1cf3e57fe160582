/**
 * Every answer within a deadline: with a stand-in git that is slow at each slice of a code search,
 * the daemon answers at the deadline (within 10 % plus a round trip), holds a true prefix of
 * git log -S's commits, and its continue token gives exactly the rest — from the same daemon, after
 * the work was forgotten, after a restart; a token of another question or repository is refused, and
 * one from before HEAD moved starts over and says so.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lines, tempDir, TestRepo } from "../helpers/git-repo.ts";
import { loreCommand } from "../helpers/lore-argv.ts";
import { daemonHome, discardHome, lore, stopDaemons, until } from "./daemon-helpers.ts";
import { health, rpcCall } from "../../src/client/rpc-client.ts";
import { expandTuples } from "../../src/mcp/model-rows.ts";

let repo: TestRepo;
let other: TestRepo;
let slowBin: string;
const homes: string[] = [];
const NEEDLE = "needle(";

/** A git that naps `seconds` before each slice of a code search walk (git log --no-walk=unsorted --stdin), then is the real git. */
function slowSliceGit(seconds: number): string {
  const real = Bun.which("git")!;
  const dir = tempDir("slow-git-");
  writeFileSync(join(dir, "git"), `#!/bin/sh\ncase " $* " in *" --no-walk=unsorted "*) sleep ${seconds};; esac\nexec ${real} "$@"\n`);
  chmodSync(join(dir, "git"), 0o755);
  return dir;
}

beforeAll(() => {
  repo = new TestRepo();
  // 160 commits (one git fast-import); every fourth adds a line with the needle: 40 commits git log -S lists.
  repo.commits((b) => Array.from({ length: 160 }, (_, i) => b.write(`f${i % 7}.c`, lines(`int v${i};`, ...(i % 4 === 0 ? [`call ${NEEDLE}${i});`] : []))).commit(`change ${i}`)));
  other = new TestRepo();
  other.write("a.c", lines(`${NEEDLE}1);`)).commit("one");
  slowBin = slowSliceGit(0.4);
}, 120_000);

afterAll(async () => {
  await Promise.all(homes.map(discardHome));
  repo.cleanup();
  other.cleanup();
}, 60_000);

function home(): string {
  const h = daemonHome();
  homes.push(h);
  return h;
}

/** What git log -S says, newest first: the truth every part is checked against. */
function truth(r: TestRepo, limit: number): string[] {
  return r.git("log", `-S${NEEDLE}`, "--format=%h", "--abbrev=12", "-n", String(limit)).trim().split("\n").filter(Boolean);
}

const env = (extra: Record<string, string> = {}) => ({ PATH: `${slowBin}:${process.env.PATH}`, LORE_TEST_PICKAXE_SLICE: "10", ...extra });
const search = (h: string, r: TestRepo, args: string[], extra?: Record<string, string>) => lore(h, r.dir, ["search", "--code", NEEDLE, "-n", "30", "--json", ...args], env(extra));
const shas = (j: any) => j.results.map((c: any) => c.sha);

/**
 * What a process start costs now, beside the deadline it waits out: the slowest of three status
 * calls (with the same flags) just after the timed one, on a machine that may run other tests at
 * once. A deadline missed by more than that is the answer's fault, not the machine's.
 */
async function slowestStart(h: string, flags: string[] = []): Promise<number> {
  let slowest = 0;
  for (let i = 0; i < 3; i++) {
    const t0 = Date.now();
    expect((await lore(h, repo.dir, ["status", "--json", ...flags], env())).code).toBe(0);
    slowest = Math.max(slowest, Date.now() - t0);
  }
  return slowest;
}

test("a code search past its deadline answers by then with a true prefix, and continue gives exactly the rest", async () => {
  const h = home();
  // Warm the daemon.
  expect((await lore(h, repo.dir, ["status", "--json"], env())).code).toBe(0);
  // Asked of the daemon itself (what MCP uses): the deadline is its promise, a process start is not.
  const [deadline, socket, t1] = [1000, join(h, "lore.sock"), Date.now()];
  const first = { json: (await rpcCall(socket, "search", { query: NEEDLE, code: true, limit: "30", deadline: `${deadline}ms`, paths: [], repo: repo.dir })) as any };
  const took = Date.now() - t1;
  // Within 10 %, and the slowest of three round trips of a trivial call just after (the machine may run other tests at once).
  let trip = 0;
  for (let i = 0, t = Date.now(); i < 3; i++, t = Date.now()) trip = Math.max(trip, (await rpcCall(socket, "status", { repo: repo.dir }), Date.now() - t));
  expect(took).toBeLessThanOrEqual(deadline * 1.1 + trip);
  const want = truth(repo, 30);
  expect(first.json.partial).toBe(true);
  expect(first.json.progress.of).toBe(160);
  expect(first.json.progress.commits).toBeLessThan(160);
  expect(first.json.progress.oldest).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(shas(first.json)).toEqual(want.slice(0, first.json.results.length));
  const rest = await search(h, repo, ["--continue", first.json.continue]);
  expect(rest.code).toBe(0);
  expect(rest.json.partial).toBeUndefined();
  expect(rest.json.after).toBe(first.json.results.length);
  expect([...shas(first.json), ...shas(rest.json)]).toEqual(want);
  expect(rest.json.truncated).toBe(true);
  // The whole answer, asked afresh, is the same list.
  expect(shas((await search(h, repo, [])).json)).toEqual(want);
}, 60_000);

test("continuing across several deadlines gives every commit once, in order", async () => {
  const h = home();
  const got: string[] = [];
  let r = await search(h, repo, ["--deadline", "700ms"]);
  let parts = 1;
  got.push(...shas(r.json));
  while (r.json.partial) {
    r = await search(h, repo, ["--deadline", "700ms", "--continue", r.json.continue]);
    expect(r.code).toBe(0);
    got.push(...shas(r.json));
    parts++;
  }
  expect(parts).toBeGreaterThan(1);
  expect(got).toEqual(truth(repo, 30));
}, 60_000);

test("a deadline of 0 or less, or one that is not a time, is BAD_ARGUMENT", async () => {
  const h = home();
  for (const d of ["0", "-5s", "soon"]) {
    const r = await search(h, repo, [`--deadline=${d}`]);
    expect({ d, code: r.code, error: r.json?.error?.code }).toEqual({ d, code: 2, error: "BAD_ARGUMENT" });
  }
  const bad = await search(h, repo, ["--continue", "not-a-token"]);
  expect(bad.json.error.code).toBe("BAD_CONTINUE");
}, 60_000);

test("a token of another question or another repository is BAD_CONTINUE, saying what to ask instead", async () => {
  const h = home();
  const first = await search(h, repo, ["--deadline", "500ms"]);
  expect(first.json.partial).toBe(true);
  const otherQuestion = await lore(h, repo.dir, ["search", "--code", NEEDLE, "-n", "29", "--json", "--continue", first.json.continue], env());
  expect(otherQuestion.json.error.code).toBe("BAD_CONTINUE");
  expect(otherQuestion.json.error.message).toContain("another question");
  expect(otherQuestion.json.error.message).toContain("no continue");
  const otherRepo = await search(h, other, ["--continue", first.json.continue]);
  expect(otherRepo.json.error.code).toBe("BAD_CONTINUE");
  expect(otherRepo.json.error.message).toContain("another repository");
}, 60_000);

test("the rest comes exactly after the work was forgotten, and after the daemon restarted", async () => {
  const h = home();
  const keep = { LORE_KEEP_MS: "1", PATH: `${slowSliceGit(0.2)}:${process.env.PATH}` }; // Untimed: 0.2 s slices, of which a walk's 10+ outlast 500 ms.
  const want = truth(repo, 30);
  const first = await search(h, repo, ["--deadline", "500ms"], keep);
  expect(first.json.partial).toBe(true);
  // The job finishes and is forgotten (kept 1 ms); the token alone gives the rest.
  const socket = join(h, "lore.sock");
  await until(async () => ((await health(socket)) as any)?.jobs?.running === 0, 30_000, 100);
  const later = await search(h, repo, ["--continue", first.json.continue], keep);
  expect([...shas(first.json), ...shas(later.json)]).toEqual(want);
  // Another question (the whole answer of the first is kept now, and comes at once).
  const ask25 = (args: string[]) => lore(h, repo.dir, ["search", "--code", NEEDLE, "-n", "25", "--json", ...args], env(keep));
  const second = await ask25(["--deadline", "500ms"]);
  expect(second.json.partial).toBe(true);
  await stopDaemons(h);
  const restarted = await ask25(["--continue", second.json.continue]);
  expect(restarted.code).toBe(0);
  expect([...shas(second.json), ...shas(restarted.json)]).toEqual(truth(repo, 25));
}, 90_000);

test("a token from before HEAD moved is BAD_CONTINUE: the rest of an older HEAD's answer is not this one's", async () => {
  const h = home();
  const r = new TestRepo();
  r.commits((b) => Array.from({ length: 60 }, (_, i) => b.write("x.c", lines(`call ${NEEDLE}${i});`)).commit(`c${i}`)));
  const first = await search(h, r, ["--deadline", "500ms"]);
  expect(first.json.partial).toBe(true);
  r.write("x.c", lines(`call ${NEEDLE}new);`)).commit("moved");
  const again = await search(h, r, ["--continue", first.json.continue]);
  expect(again.code).toBe(2);
  expect(again.json.error.code).toBe("BAD_CONTINUE");
  expect(again.json.error.message).toContain("HEAD");
  // Asked again without continue: the new HEAD's answer.
  const fresh = await search(h, r, []);
  expect(shas(fresh.json)).toEqual(truth(r, 30));
  r.cleanup();
}, 90_000);

test("a client that hangs up mid-call leaves the work to finish and be kept for the next ask, then forgotten", async () => {
  const h = home();
  const socket = join(h, "lore.sock");
  expect((await lore(h, repo.dir, ["status", "--json"], env({ LORE_KEEP_MS: "4000" }))).code).toBe(0);
  const { spawn } = await import("node:child_process");
  const hangsUp = loreCommand(["search", "--code", NEEDLE, "-n", "30", "--json", "--deadline", "60s"]);
  const child = spawn(hangsUp.command, hangsUp.args, {
    cwd: repo.dir,
    env: { ...process.env, LORE_HOME: h, ...env() } as Record<string, string>,
    stdio: "ignore",
  });
  await until(async () => ((await health(socket)) as any)?.jobs?.running === 1, 10_000, 50);
  child.kill("SIGKILL");
  // The job goes on alone, finishes, and is kept for the next ask, which is then at once.
  await until(async () => ((await health(socket)) as any)?.jobs?.kept === 1, 30_000, 100);
  const t = Date.now();
  const next = await search(h, repo, ["--deadline", "5s"]);
  const took = Date.now() - t;
  // Whole within 5 s, where walking again takes 16 slices of 0.4 s: the kept answer, a process start away.
  expect(next.json.partial).toBeUndefined();
  expect(took).toBeLessThan(1000 + (await slowestStart(h)));
  expect(shas(next.json)).toEqual(truth(repo, 30));
  // Then forgotten: nothing runs, nothing is kept.
  await until(async () => {
    const j = ((await health(socket)) as any)?.jobs;
    return j?.running === 0 && j?.kept === 0;
  }, 15_000, 200);
}, 90_000);

test("an MCP client that asks for progress hears how far the search got, each second, and continue gives the rest", async () => {
  const h = home();
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  // Slices of a second each: the 30 commits take about four, past the deadline, so the client hears
  // at least two progress notifications after the first slice, however slowly the daemon started.
  const slowerBin = slowSliceGit(1);
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("LORE_")) base[k] = v;
  const transport = new StdioClientTransport({ ...loreCommand(["mcp"]), cwd: repo.dir, env: { ...base, LORE_HOME: h, ...env({ LORE_MCP_DEADLINE: "3500" }), PATH: `${slowerBin}:${process.env.PATH}` }, stderr: "pipe" });
  const client = new Client({ name: "deadline-test", version: "0" });
  await client.connect(transport);
  try {
    const heard: { progress: number; total?: number; message?: string }[] = [];
    const args = { query: NEEDLE, code: true, limit: 30 };
    const r = (await client.callTool({ name: "lore_search", arguments: args }, undefined, { onprogress: (p) => heard.push(p), timeout: 60_000 })) as any;
    expect(r.isError).toBeUndefined();
    expect(heard.length).toBeGreaterThan(0);
    // Under load the first second may pass before the walk has begun ("working…") or counted its commits ("searched 0 commits").
    for (const p of heard) expect(p.message).toMatch(/^search: (working…|searched \d+ (of 160 )?commits(, back to \d{4}-\d\d)?)$/);
    expect(heard.some((p) => / of 160 commits/.test(p.message ?? ""))).toBe(true);
    expect(heard.some((p) => /back to \d{4}-\d\d$/.test(p.message ?? ""))).toBe(true);
    expect(heard.every((p, i) => i === 0 || p.progress > heard[i - 1]!.progress)).toBe(true);
    const want = truth(repo, 30);
    const first = expandTuples(r.structuredContent) as any;
    expect(shas(first)).toEqual(want.slice(0, first.results.length));
    if (first.partial) {
      expect(r.content[0].text).toContain(`continue ${first.continue}`);
      const rest = (await client.callTool({ name: "lore_search", arguments: { ...args, continue: first.continue } })) as any;
      expect([...shas(first), ...shas(expandTuples(rest.structuredContent))]).toEqual(want);
    }
    // Without a progressToken nothing is sent, and the answer is the same.
    const quiet = expandTuples(((await client.callTool({ name: "lore_search", arguments: args })) as any).structuredContent) as any;
    expect(shas(quiet)).toEqual(quiet.partial ? want.slice(0, quiet.results.length) : want);
  } finally {
    await client.close();
  }
}, 90_000);

test("the MCP deadline is 5 s unless LORE_MCP_DEADLINE says otherwise", async () => {
  const { mcpDeadline } = await import("../../src/mcp/deadline.ts");
  expect(mcpDeadline({})).toBe(5000);
  expect(mcpDeadline({ LORE_MCP_DEADLINE: "2s" })).toBe(2000);
  expect(mcpDeadline({ LORE_MCP_DEADLINE: "750" })).toBe(750);
  expect(mcpDeadline({ LORE_MCP_DEADLINE: "none" })).toBeUndefined();
  const said: string[] = [];
  expect(mcpDeadline({ LORE_MCP_DEADLINE: "-3s" }, (l) => said.push(l))).toBe(5000);
  expect(said[0]).toContain("LORE_MCP_DEADLINE");
});

test("a partial answer cut to fit the MCP answer size counts in its token only the items it sent", async () => {
  const { pageOf } = await import("../../src/queries/pages.ts");
  const results = Array.from({ length: 5 }, (_, i) => ({ sha: String(i).repeat(12), subject: "x".repeat(400) }));
  let sealed: unknown;
  const page = pageOf("search", { results, partial: true, after: 2 }, [2], 1024, (o) => ((sealed = o), "t")) as any;
  expect(page.results.length).toBeLessThan(5);
  expect(sealed).toEqual([2 + page.results.length]);
});

test("without the daemon the deadline holds too: the work stops with the answer, and the token gives the rest", async () => {
  const h = home();
  const solo = (args: string[]) => lore(h, repo.dir, ["search", "--code", NEEDLE, "-n", "30", "--json", "--no-daemon", ...args], env());
  // A first run builds the history index.
  expect((await lore(h, repo.dir, ["status", "--json", "--no-daemon"], env())).code).toBe(0);
  const t1 = Date.now();
  const first = await solo(["--deadline", "900ms"]);
  const took = Date.now() - t1;
  expect(took).toBeLessThanOrEqual(900 * 1.1 + (await slowestStart(h, ["--no-daemon"])));
  expect(first.json.partial).toBe(true);
  const rest = await solo(["--continue", first.json.continue]);
  expect([...shas(first.json), ...shas(rest.json)]).toEqual(truth(repo, 30));
}, 60_000);

test("with paths and with a regex, the parts in order are git log -S -- PATH's and git log -G's commits", async () => {
  const h = home();
  const collect = async (args: string[]) => {
    const got: string[] = [];
    let r = await lore(h, repo.dir, [...args, "--json", "--deadline", "600ms"], env());
    got.push(...shas(r.json));
    while (r.json.partial) {
      r = await lore(h, repo.dir, [...args, "--json", "--deadline", "600ms", "--continue", r.json.continue], env());
      got.push(...shas(r.json));
    }
    return got;
  };
  const git = (args: string[]) => repo.git("log", "--format=%h", "--abbrev=12", ...args).trim().split("\n").filter(Boolean);
  expect(await collect(["search", "--code", NEEDLE, "f3.c", "f5.c", "-n", "8"])).toEqual(git([`-S${NEEDLE}`, "-n", "8", "--", "f3.c", "f5.c"]));
  expect(await collect(["search", "--code", "--regex", "needle\\([0-9]*2\\)", "-n", "6"])).toEqual(git(["-Gneedle\\([0-9]*2\\)", "-n", "6"]));
  expect(await collect(["search", "--code", NEEDLE, "--oldest", "-n", "5"])).toEqual(git([`-S${NEEDLE}`, "--reverse"]).slice(0, 5));
}, 90_000);

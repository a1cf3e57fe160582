import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { tempDir, type TestRepo } from "../helpers/git-repo.ts";
import { loreCommand } from "../helpers/lore-argv.ts";
import { callTool, originRepo, sdkClient, startServe, type Served } from "./served.ts";

// One server, three clones of one origin: one imports the index CI published as a file (named relative to the
// config file), one imports it from a loopback URL, one is given a URL that answers 404 and indexes by itself.
let origin: TestRepo;
let dir: string;
let files: ReturnType<typeof Bun.serve>;
let served: Served;
let client: Client;
let exportedHead: string;

beforeAll(async () => {
  origin = originRepo();
  dir = tempDir("lore-serve-published-");
  // What a CI job does: build and export the index of its checkout (a LORE_HOME of its own).
  const exported = loreCommand(["index", "export", join(dir, "published.lore-index")]);
  const ci = spawnSync(exported.command, exported.args, {
    cwd: origin.dir,
    env: { ...process.env, LORE_HOME: join(dir, "ci-home"), LORE_NO_DAEMON: "1" },
    encoding: "utf8",
  });
  if (ci.status !== 0) throw new Error(ci.stderr);
  exportedHead = origin.git("rev-parse", "HEAD").trim();
  files = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => (new URL(req.url).pathname === "/published.lore-index" ? new Response(readFileSync(join(dir, "published.lore-index"))) : new Response("no such index", { status: 404 })),
  });
  const base = `http://127.0.0.1:${files.port}`;
  writeFileSync(
    join(dir, "serve.toml"),
    [
      `data = "data"`,
      `[[repo]]\nname = "filed"\nsource = "${origin.dir}"\nindex = "published.lore-index"`,
      `[[repo]]\nname = "fetched"\nsource = "${origin.dir}"\nindex = "${base}/published.lore-index"`,
      `[[repo]]\nname = "unpublished"\nsource = "${origin.dir}"\nindex = "${base}/nothing-here.lore-index"`,
    ].join("\n"),
  );
  // A LORE_HOME that outlives the server, as a restart's.
  served = await startServe(["--config", join(dir, "serve.toml"), "--fetch-every", "300ms"], { LORE_HOME: join(dir, "home") });
  client = await sdkClient(served.url);
});

afterAll(async () => {
  await client?.close().catch(() => {});
  await served?.stop();
  files?.stop(true);
  origin.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const shaOf = (row: unknown[] | { sha: string }) => (Array.isArray(row) ? row[0] : row.sha) as string;
const gitLog = () => origin.git("log", "--format=%H").trim().split("\n").map((s) => s.slice(0, 12));
/** The server's log lines about one served repository's clone. */
const linesOf = (name: string) => served.stderr().split("\n").filter((l) => l.includes(`/clones/${name}:`) || l.includes(`"repo":"${name}"`));
/** A first pass from no index logs "indexed HEAD in N ms"; catching up from an index logs "indexed OLD..NEW". */
const firstPass = /: indexed [0-9a-f]{12} in \d+ ms/;

describe("lore serve with the index a CI job publishes", () => {
  test("the published index is imported from a file or a URL before the first answer, and no first pass runs", async () => {
    for (const name of ["filed", "fetched"]) {
      const r = await callTool(client, "lore_log", { repo: name });
      expect(r.isError).toBeUndefined();
      expect(r.structuredContent.partial).toBeUndefined();
      expect(r.structuredContent.commits.map(shaOf)).toEqual(gitLog());
      const imported = linesOf(name).find((l) => l.includes('"event":"index-import"'));
      expect(JSON.parse(imported!)).toMatchObject({ repo: name, head: exportedHead, commits: 6 });
      expect(linesOf(name).some((l) => firstPass.test(l))).toBe(false);
    }
  });

  test("answers from the imported index equal git's on the served clone", async () => {
    const clone = join(dir, "data", "clones", "fetched");
    const blame = await callTool(client, "lore_blame", { repo: "fetched", path: "a.txt" });
    expect(blame.isError).toBeUndefined();
    const porcelain = spawnSync("git", ["blame", "--line-porcelain", "HEAD", "--", "a.txt"], { cwd: clone, encoding: "utf8" }).stdout;
    const gitShas = porcelain.split("\n").filter((l) => /^[0-9a-f]{40} /.test(l)).map((l) => l.slice(0, 12));
    // Each line's commit as lore's hunks ([first, last, commit]) give it, against git's line by line.
    const perLine = (blame.structuredContent.hunks as [number, number, string][]).flatMap(([first, last, sha]) => Array.from({ length: last - first + 1 }, () => sha));
    expect(perLine).toEqual(gitShas);
    const history = await callTool(client, "lore_history", { repo: "fetched", path: "a.txt" });
    const gitHistory = spawnSync("git", ["log", "--format=%H", "--follow", "--", "a.txt"], { cwd: clone, encoding: "utf8" }).stdout.trim().split("\n");
    expect(history.structuredContent.commits.map(shaOf)).toEqual(gitHistory.map((s) => s.slice(0, 12)));
  });

  test("an index that cannot be had is logged in a sentence, and that repository is indexed by the server itself", async () => {
    const failed = linesOf("unpublished").find((l) => l.includes('"event":"index-import"'));
    expect(JSON.parse(failed!)).toMatchObject({ repo: "unpublished", outcome: "INDEX_DOWNLOAD_FAILED" });
    expect(JSON.parse(failed!).message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/nothing-here\.lore-index answered 404/);
    const r = await callTool(client, "lore_log", { repo: "unpublished" });
    expect(r.isError).toBeUndefined();
    expect(r.structuredContent.commits.map(shaOf)).toEqual(gitLog());
    expect(linesOf("unpublished").some((l) => firstPass.test(l))).toBe(true);
  });

  test("a new commit in the source is fetched and answered on top of the imported index", async () => {
    origin.write("b.txt", "bee\nhive\n").commit("b grows");
    const want = gitLog();
    let got: string[] = [];
    for (let i = 0; i < 100 && got[0] !== want[0]; i++) {
      await new Promise((r) => setTimeout(r, 100));
      got = (await callTool(client, "lore_log", { repo: "fetched" })).structuredContent.commits.map(shaOf);
    }
    expect(got).toEqual(want);
    expect((await callTool(client, "lore_log", { repo: "filed" })).structuredContent.commits.map(shaOf)).toEqual(want);
    expect(linesOf("fetched").some((l) => firstPass.test(l))).toBe(false);
    // The published file is older than the index caught up from it: it is kept, not imported over it once more.
    const kept = () => linesOf("fetched").filter((l) => l.includes('"event":"index-import"')).slice(1).map((l) => JSON.parse(l));
    for (let i = 0; i < 50 && kept().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(kept()).toEqual([expect.objectContaining({ repo: "fetched", head: exportedHead, outcome: "kept" })]);
    expect(linesOf("fetched").filter((l) => l.includes("imported an index")).length).toBe(1);
  });

  test("a restarted server keeps the index it had: nothing is imported again or indexed from nothing", async () => {
    await client.close();
    await served.stop();
    served = await startServe(["--config", join(dir, "serve.toml"), "--fetch-every", "300ms"], { LORE_HOME: join(dir, "home") });
    client = await sdkClient(served.url);
    for (const name of ["filed", "fetched", "unpublished"]) {
      const r = await callTool(client, "lore_log", { repo: name });
      expect(r.structuredContent.commits.map(shaOf)).toEqual(gitLog());
      expect(linesOf(name).some((l) => firstPass.test(l) || l.includes("imported an index"))).toBe(false);
    }
    expect(linesOf("filed").find((l) => l.includes('"event":"index-import"'))).toContain('"outcome":"kept"');
  });
});

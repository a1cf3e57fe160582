import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { tempDir, type TestRepo } from "../helpers/git-repo.ts";
import { loreCommand } from "../helpers/lore-argv.ts";
import { addToken, callTool, LIST_TOOLS, originRepo, post, sdkClient, startServe, type Served } from "./served.ts";

let origin: TestRepo;
let dir: string;
let token: string;
const servers: Served[] = [];
const clients: Client[] = [];

/** A replica of its own (own clones, own LORE_HOME) over the same source, with the same token file. */
async function replica(name: string, extra: string[], env: Record<string, string> = {}): Promise<Client> {
  const s = await startServe(["--repo", origin.dir, "--data", join(dir, name), "--tokens", join(dir, "tokens"), ...extra], env);
  servers.push(s);
  const c = await sdkClient(s.url, token);
  clients.push(c);
  return c;
}

let a: Client;
let b: Client;
let c: Client;

beforeAll(async () => {
  origin = originRepo();
  dir = tempDir("lore-serve-replicas-");
  token = addToken(join(dir, "tokens"), "team");
  writeFileSync(join(dir, "secret"), "a-secret-the-replicas-share-0123456789\n");
  [a, b, c] = await Promise.all([
    replica("a", ["--secret-file", join(dir, "secret")]),
    replica("b", [], { LORE_SECRET: "a-secret-the-replicas-share-0123456789" }),
    replica("c", [], { LORE_SECRET: "another-secret-altogether-9876543210" }),
  ]);
});

afterAll(async () => {
  for (const cl of clients) await cl.close().catch(() => {});
  for (const s of servers) await s.stop();
  origin.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const shaOf = (row: unknown[] | { sha: string }) => (Array.isArray(row) ? row[0] : row.sha);

describe("lore serve replicas", () => {
  test("a continue token from one replica gives the rest on another that shares the secret", async () => {
    const first = await callTool(a, "lore_log", { limit: 2 });
    const token = first.structuredContent.continue;
    expect(token).toMatch(/^\d+$/);
    const rest = await callTool(b, "lore_log", { limit: 2, continue: token });
    expect(rest.isError).toBeUndefined();
    const all = origin.git("log", "--format=%H").trim().split("\n").map((s) => s.slice(0, 12));
    expect(first.structuredContent.commits.map(shaOf)).toEqual(all.slice(0, 2));
    expect(rest.structuredContent.commits.map(shaOf)).toEqual(all.slice(2, 4));
  });

  test("a replica with another secret refuses the token", async () => {
    const first = await callTool(a, "lore_log", { limit: 2 });
    const r = await callTool(c, "lore_log", { limit: 2, continue: first.structuredContent.continue });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toStartWith("BAD_CONTINUE:");
  });

  test("a file history's continue token crosses replicas too (bound to the repository's name and head, not a replica's folder)", async () => {
    const first = await callTool(a, "lore_history", { path: "a.txt", limit: 1 });
    const rest = await callTool(b, "lore_history", { path: "a.txt", limit: 1, continue: first.structuredContent.continue });
    expect(rest.isError).toBeUndefined();
    expect(rest.structuredContent.commits.map(shaOf)).toEqual(origin.git("log", "--format=%H", "--", "a.txt").trim().split("\n").slice(1, 2).map((s) => s.slice(0, 12)));
  });
});

describe("lore serve limits and its command line", () => {
  test("a token over its rate is told to come back later (429 with Retry-After)", async () => {
    const s = await startServe(["--repo", origin.dir, "--data", join(dir, "d"), "--tokens", join(dir, "tokens"), "--rate", "3"]);
    servers.push(s);
    const statuses: number[] = [];
    let retry: string | null = null;
    for (let i = 0; i < 5; i++) {
      const res = await post(s.url, LIST_TOOLS, { authorization: `Bearer ${token}` });
      statuses.push(res.status);
      if (res.status === 429) retry = res.headers.get("retry-after");
      await res.body?.cancel();
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3)).toEqual([429, 429]);
    expect(Number(retry)).toBeGreaterThanOrEqual(1);
  });

  const lore = (args: string[], env: Record<string, string> = {}) => {
    const c = loreCommand(args);
    return spawnSync(c.command, c.args, { encoding: "utf8", env: { ...process.env, LORE_HOME: dir, ...env } });
  };

  test("listening beyond loopback without a token is refused before anything starts", () => {
    const r = lore(["serve", "--listen", "0.0.0.0:0", "--repo", origin.dir, "--tokens", join(dir, "none")]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("only with tokens");
    expect(r.stderr).toContain("[USAGE]");
  });

  test("serve without a repository, or with a bad flag, is a usage error", () => {
    const none = lore(["serve"]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("--repo");
    expect(lore(["serve", "--repo", origin.dir, "--listen", "nowhere"]).stderr).toContain("HOST:PORT");
    expect(lore(["serve", "--repo", origin.dir, "--fetch-every", "soon"]).status).toBe(2);
  });

  test("tokens are added once, listed by name and removed", () => {
    const file = join(dir, "cli-tokens");
    const add = lore(["serve", "token", "add", "alice", "--tokens", file]);
    expect(add.status).toBe(0);
    expect(add.stdout.trim()).toMatch(/^lore_[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(file, "utf8")).not.toContain(add.stdout.trim());
    expect(lore(["serve", "token", "add", "alice", "--tokens", file]).status).toBe(2);
    expect(lore(["serve", "token", "list", "--tokens", file]).stdout).toMatch(/^alice\t\S+\n$/);
    expect(lore(["serve", "token", "remove", "alice", "--tokens", file]).status).toBe(0);
    expect(lore(["serve", "token", "list", "--tokens", file]).stdout).toBe("");
    expect(lore(["serve", "token", "remove", "alice", "--tokens", file]).status).toBe(2);
  });
});

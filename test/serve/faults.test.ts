import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { tempDir, type TestRepo } from "../helpers/git-repo.ts";
import { callTool, originRepo, post, sdkClient, startServe, type Served } from "./served.ts";

let origin: TestRepo;
let data: string;
let served: Served;
let client: Client;

beforeAll(async () => {
  origin = originRepo();
  data = tempDir("lore-serve-faults-");
  served = await startServe(["--repo", origin.dir, "--data", data, "--fetch-every", "300ms"], { LORE_HOME: join(data, "home") });
  client = await sdkClient(served.url);
});

afterAll(async () => {
  await client?.close().catch(() => {});
  await served?.stop();
  origin.cleanup();
  rmSync(`${origin.dir}-gone`, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

const call = (name: string, args: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args } });

describe("lore serve under faults", () => {
  test("clients that hang up mid-answer harm no other client", async () => {
    const hungUp = Array.from({ length: 5 }, () => {
      const ac = new AbortController();
      const res = fetch(served.url, { method: "POST", body: call("lore_history", { path: "a.txt" }), signal: ac.signal, headers: { "content-type": "application/json", accept: "application/json, text/event-stream" } }).catch(() => null);
      setTimeout(() => ac.abort(), 5);
      return res;
    });
    await Promise.all(hungUp);
    const r = await callTool(client, "lore_log", {});
    expect(r.isError).toBeUndefined();
    expect(r.structuredContent.commits.length).toBe(6);
  });

  test("a JSON-RPC message of the wrong shape is an error, and the next request is answered", async () => {
    for (const wrong of [{ jsonrpc: "2.0", id: 1, method: 42 }, { id: 1, method: "tools/list" }, [], "tools/list"]) {
      const res = await post(served.url, JSON.stringify(wrong));
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({ code: -32600, data: { code: "INVALID_REQUEST" }, message: expect.stringContaining("not a JSON-RPC 2.0 message") });
    }
    expect((await callTool(client, "lore_blame", { path: "b.txt" })).isError).toBeUndefined();
  });

  test("a source that disappears leaves the served history answering, and the failed fetch logged", async () => {
    renameSync(origin.dir, `${origin.dir}-gone`);
    await new Promise((r) => setTimeout(r, 1200));
    const r = await callTool(client, "lore_log", { limit: 2 });
    expect(r.isError).toBeUndefined();
    expect(served.stderr()).toMatch(/"event":"fetch","repo":"[^"]+","outcome":"GIT_FAILED"/);
    renameSync(`${origin.dir}-gone`, origin.dir);
  });

  test("a SIGTERM lets the answers under way finish, and the server started again on its data answers from the index it kept", async () => {
    const want = (await callTool(client, "lore_history", { path: "a.txt" })).structuredContent;
    await client.close();
    const asked = Array.from({ length: 30 }, () =>
      post(served.url, call("lore_history", { path: "a.txt" })).then(
        async (r) => ({ status: r.status, text: await r.text() }),
        (e: Error) => ({ error: e.message }),
      ),
    );
    await new Promise((r) => setTimeout(r, 30));
    await served.stop();
    // Each call is answered whole, or was never taken (refused): none is cut off mid-answer.
    for (const got of await Promise.all(asked)) {
      if ("error" in got) expect(got.error).toMatch(/Unable to connect|ECONNREFUSED/);
      else expect(got).toMatchObject({ status: 200, text: expect.stringContaining('"result"') });
    }
    expect(served.stderr()).toContain('"event":"stopped"');
    served = await startServe(["--repo", origin.dir, "--data", data, "--fetch-every", "300ms"], { LORE_HOME: join(data, "home") });
    client = await sdkClient(served.url);
    expect((await callTool(client, "lore_history", { path: "a.txt" })).structuredContent).toEqual(want);
    // A first pass from no index logs "indexed HEAD in N ms"; the restarted server has none to make.
    expect(served.stderr()).not.toMatch(/: indexed [0-9a-f]{12} in \d+ ms/);
  });
});

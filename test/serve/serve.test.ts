import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ALICE, tempDir, type TestRepo } from "../helpers/git-repo.ts";
import { addToken, callTool, LIST_TOOLS, originRepo, post, rawRequest, sdk2Client, sdkClient, startServe, type Asker, type Served } from "./served.ts";

let origin: TestRepo;
let data: string;
let tokens: string;
let token: string;
let served: Served;
let client: Client;
/** The clients of both SDK lines, by the protocol revision each speaks. */
const clients = new Map<string, Asker>();

beforeAll(async () => {
  origin = originRepo();
  data = tempDir("lore-serve-data-");
  tokens = join(data, "team-tokens");
  token = addToken(tokens, "ci");
  served = await startServe(["--repo", origin.dir, "--data", data, "--tokens", tokens, "--fetch-every", "1s", "--client-timeout", "1s", "--rate", "10000"]);
  client = await sdkClient(served.url, token);
  clients.set("2025-11-25", client);
  const modern = await sdk2Client(served.url, token);
  expect(modern.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  clients.set("2026-07-28", modern);
});

afterAll(async () => {
  for (const c of clients.values()) await c.close().catch(() => {});
  await served?.stop();
  origin.cleanup();
  rmSync(data, { recursive: true, force: true });
});

const shas12 = (text: string) => text.trim().split("\n").map((s) => s.slice(0, 12));

for (const era of ["2025-11-25", "2026-07-28"]) {
  describe(`lore serve answers the SDK client of MCP ${era}`, () => {
    let client: Asker;
    beforeAll(() => {
      client = clients.get(era)!;
    });

    test("the client with a bearer header lists every tool", async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("lore_blame");
      expect(tools.length).toBe(18);
    });

    test("blame answers each line with the commit git blame gives", async () => {
      const r = await callTool(client, "lore_blame", { path: "a.txt" });
      expect(r.isError).toBeUndefined();
      const porcelain = origin.git("blame", "--line-porcelain", "HEAD", "--", "a.txt");
      const perLine = [...porcelain.matchAll(/^([0-9a-f]{40}) \d+ \d+/gm)].map((m) => m[1]!.slice(0, 12));
      const fromLore: string[] = [];
      for (const [start, end, sha] of r.structuredContent.hunks) for (let l = start; l <= end; l++) fromLore.push(sha);
      expect(fromLore).toEqual(perLine);
    });

    test("log lists the commits git log lists, newest first", async () => {
      const r = await callTool(client, "lore_log", {});
      const rows = r.structuredContent.commits.map((c: unknown[] | { sha: string }) => (Array.isArray(c) ? c[0] : c.sha));
      expect(rows).toEqual(shas12(origin.git("log", "--format=%H")));
    });

    test("a repository is named by its served name, and the answer names it so, never the server's clone", async () => {
      const name = origin.dir.split("/").pop()!;
      const r = await callTool(client, "lore_log", { repo: name, limit: 1 });
      expect(r.structuredContent.repo).toBe(name);
      expect(JSON.stringify(r)).not.toContain(data);
    });

    test("a repository the server does not serve is refused, a folder of the server's too", async () => {
      for (const repo of ["other", "/etc", data, join(data, "clones")]) {
        const r = await callTool(client, "lore_log", { repo });
        expect(r.isError).toBe(true);
        expect(r.content[0]!.text).toStartWith("REPO_NOT_ALLOWED: This lore server serves");
      }
    });

    test("paths that leave the repository (.., absolute, through a symlink) are refused", async () => {
      for (const path of ["../x.txt", "dir/../../a.txt", "/etc/passwd", "escape/passwd", `${origin.dir}/a.txt`]) {
        const r = await callTool(client, "lore_blame", { path });
        expect(r.isError).toBe(true);
        expect(r.content[0]!.text).toStartWith("PATH_OUTSIDE_REPO:");
      }
    });

    test("questions about a work tree say they need the local lore mcp", async () => {
      for (const [tool, args] of [["lore_changes", {}], ["lore_restore", { paths: ["a.txt"], from: "1" }], ["lore_review", {}], ["lore_cochange", { paths: ["a.txt"], changed: true }], ["lore_git", { args: ["status"] }]] as const) {
        const r = await callTool(client, tool, args);
        expect(r.isError).toBe(true);
        expect(r.content[0]!.text).toMatch(/^NEEDS_WORK_TREE: .*local lore mcp/);
      }
      // A branch's review is about commits: answered.
      const review = await callTool(client, "lore_review", { base: "HEAD~2" });
      expect(review.isError).toBeUndefined();
    });

    test("its tool call is logged with the token's name and outcome", async () => {
      await callTool(client, "lore_show", { rev: "HEAD" });
      const lines = await served.logLines((l) => l.tool === "lore_show");
      expect(lines.filter((l) => l.tool === "lore_show").at(-1)).toMatchObject({ token: "ci", rpc: "tools/call", status: 200, outcome: "ok" });
    });
  });
}

describe("lore serve over Streamable HTTP", () => {
  test("no token, or a wrong one, is 401 without any OAuth discovery", async () => {
    for (const headers of [{} as Record<string, string>, { authorization: "Bearer nope" }, { authorization: `Bearer ${token}x` }, { authorization: token }]) {
      const res = await post(served.url, LIST_TOOLS, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBeNull();
      const body = await res.json();
      expect(body.error.data.code).toBe("UNAUTHORIZED");
      expect(JSON.stringify(body)).not.toContain("resource_metadata");
    }
    expect((await fetch(`${served.origin}/.well-known/oauth-protected-resource`)).status).toBe(404);
  });

  test("a foreign Origin is 403, the server's own origin is answered", async () => {
    const auth = { authorization: `Bearer ${token}` };
    const foreign = await post(served.url, LIST_TOOLS, { ...auth, origin: "http://evil.example" });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error.data.code).toBe("FORBIDDEN_ORIGIN");
    expect((await post(served.url, LIST_TOOLS, { ...auth, origin: "null" })).status).toBe(403);
    expect((await post(served.url, LIST_TOOLS, { ...auth, origin: served.origin })).status).toBe(200);
  });

  test("a Host that is not this server's (DNS rebinding) is 403", async () => {
    const res = await rawRequest(served.origin, `POST /mcp HTTP/1.1\r\nHost: evil.example:80\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${LIST_TOOLS.length}\r\nConnection: close\r\n\r\n${LIST_TOOLS}`);
    expect(res).toStartWith("HTTP/1.1 403");
    expect(res).toContain("FORBIDDEN_HOST");
  });

  test("a body over 1 MB is 413, whether declared or streamed", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(1024 * 1024) } });
    const res = await post(served.url, big, { authorization: `Bearer ${token}` });
    expect(res.status).toBe(413);
    expect((await res.json()).error.data.code).toBe("BODY_TOO_LARGE");
    const chunked = await rawRequest(
      served.origin,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${(1024 * 1024 + 10).toString(16)}\r\n${"x".repeat(1024 * 1024 + 10)}\r\n0\r\n\r\n`,
    );
    expect(chunked).toStartWith("HTTP/1.1 413");
  });

  test("a client that sends its body, or its headers, too slowly is cut off", async () => {
    const t0 = Date.now();
    // Both at once: the headers' cut-off (the connection's idle time) is the longer wait.
    const [body, headers] = await Promise.all([
      rawRequest(served.origin, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Length: 100\r\n\r\n{"jsonrpc"`),
      rawRequest(served.origin, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n", 20_000).then((text) => ({ text, ms: Date.now() - t0 })),
    ]);
    expect(body).toStartWith("HTTP/1.1 408");
    expect(body).toContain("CLIENT_TOO_SLOW");
    expect(headers.text).toBe("");
    // Idle 5 s past --client-timeout, and Bun checks idleness every 4 s or so.
    expect(headers.ms).toBeLessThan(16_000);
  });

  test("a malformed JSON-RPC body is a parse error, and the server goes on answering", async () => {
    const res = await post(served.url, "{not json", { authorization: `Bearer ${token}` });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe(-32700);
    expect((await client.listTools()).tools.length).toBe(18);
  });

  test("each request is one JSON line naming the token, tool and outcome, never the token itself", async () => {
    await callTool(client, "lore_history", { path: "b.txt" });
    const lines = await served.logLines((l) => l.tool === "lore_history");
    const call = lines.find((l) => l.tool === "lore_history");
    expect(call).toMatchObject({ token: "ci", rpc: "tools/call", status: 200, outcome: "ok" });
    expect(typeof call.ms).toBe("number");
    expect(lines.some((l) => l.outcome === "UNAUTHORIZED" && l.token === undefined)).toBe(true);
    expect(served.stderr()).not.toContain(token);
    // Nor an answer: the blame's subjects never reach the log.
    expect(served.stderr()).not.toContain("fix a's second line");
  });

  test("the token file keeps names and hashes, never a token", () => {
    const text = readFileSync(tokens, "utf8");
    expect(text).toMatch(/^ci sha256:[0-9a-f]{64} \S+\n$/);
    expect(text).not.toContain(token);
  });

  test("a commit pushed to the source is answered after the next fetch", async () => {
    const before = origin.git("status", "--porcelain");
    const sha = origin.write("b.txt", "bee\nmore\n").commit("more b", ALICE);
    let seen: string[] = [];
    for (let i = 0; i < 60 && seen[0] !== sha.slice(0, 12); i++) {
      await new Promise((r) => setTimeout(r, 200));
      const r = await callTool(client, "lore_log", { limit: 1 });
      seen = r.structuredContent.commits.map((c: unknown[] | { sha: string }) => (Array.isArray(c) ? c[0] : c.sha));
    }
    expect(seen[0]).toBe(sha.slice(0, 12));
    // The source's work tree was only read.
    expect(origin.git("status", "--porcelain")).toBe(before);
  });
});

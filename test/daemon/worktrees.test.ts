/**
 * Every question answers in the innermost worktree that holds its path — a linked worktree
 * inside the main checkout (Claude Code's .claude/worktrees/NAME) or beside it — at that
 * worktree's HEAD, on the CLI, over RPC and over MCP; the worktrees share one index; answers
 * of one never leak into another; bad worktrees get clear errors; .git is never written.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { ALICE, BOB, CAROL, lines, runGit, TestRepo, tempDir } from "../helpers/git-repo.ts";
import { gitBlame, gitLogFile } from "../helpers/git-truth.ts";
import { gitDirHash } from "../helpers/disk-truth.ts";
import { repoHash } from "../helpers/repo-hash.ts";
import { daemonHome, discardHome, loreSync, until } from "./daemon-helpers.ts";
import { loreCommand } from "../helpers/lore-argv.ts";
import { rpcCall } from "../../src/client/rpc-client.ts";
import { daemonPaths } from "../../src/client/socket-path.ts";
import { expandTuples } from "../../src/mcp/model-rows.ts";

let home: string;
let main: TestRepo;
/** Claude Code's place for a worktree: inside the main checkout. */
let nested: string;
/** `git worktree add ../side`: beside it. */
let side: string;
let detached: string;
let before: string;

const ask = (cwd: string, args: string[]) => {
  const r = loreSync(home, cwd, [...args, "--json"]);
  if (r.code !== 0) throw new Error(`lore ${args.join(" ")}: ${r.stderr}`);
  return r.json;
};
const fails = (cwd: string, args: string[]) => {
  const r = loreSync(home, cwd, [...args, "--json"]);
  expect(r.code).not.toBe(0);
  return r.json.error as { code: string; message: string };
};

/** lore's blame hunks as one sha per line. */
const perLine = (hunks: any[]) => hunks.flatMap(([a, b, sha]: [number, number, string]) => Array.from({ length: b - a + 1 }, () => sha));
const gitShas = (dir: string, path: string) => gitBlame(dir, "HEAD", path).map((o) => o.sha);
const gitLog = (dir: string, ...paths: string[]) => runGit(dir, ["log", "--format=%H", "--", ...paths]).split("\n").filter(Boolean).map((s) => s.slice(0, 12));

beforeAll(() => {
  home = daemonHome();
  main = new TestRepo();
  main.write("src/app.ts", lines(1, 2, 3, 4, 5, 6)).write("docs/guide.md", lines("guide")).commit("Start the app", ALICE);
  main.write("src/app.ts", lines(1, 2, "three", 4, 5, 6)).commit("Spell three", BOB);
  nested = join(main.dir, ".claude", "worktrees", "feat");
  main.git("worktree", "add", "-q", "-b", "feat", nested);
  const feat = new TestRepo(nested, false);
  feat.write("src/app.ts", lines(1, "two", "three", 4, 5, 6, 7)).write("src/new.ts", lines("only on feat")).commit("Feature work", CAROL);
  side = main.dir + "-side";
  main.git("worktree", "add", "-q", "-b", "side", side, "HEAD~1");
  new TestRepo(side, false).write("src/app.ts", lines(1, 2, 3, "four", 5, 6)).commit("Side work", BOB);
  detached = join(main.dir, ".claude", "worktrees", "det");
  main.git("worktree", "add", "-q", "--detach", detached, "HEAD~1");
  main.write("src/app.ts", lines(1, 2, "three", 4, 5, "six")).commit("Main moves on", ALICE);
  before = gitDirHash(main.dir);
});

afterAll(async () => {
  await discardHome(home);
  for (const d of [side, main?.dir]) if (d) rmSync(d, { recursive: true, force: true });
}, 60_000);

describe("the CLI, asked from the main checkout's folder", () => {
  test("blame of an absolute path into the nested worktree answers there, at its HEAD, as git -C <worktree> blame", () => {
    const r = ask(main.dir, ["blame", join(nested, "src", "app.ts")]);
    expect(r.repo).toBe(nested);
    expect(r.rev).toBe(runGit(nested, ["rev-parse", "HEAD"]).trim());
    expect(perLine(r.hunks)).toEqual(gitShas(nested, "src/app.ts"));
    // The main checkout's own file is still the main checkout's.
    expect(perLine(ask(main.dir, ["blame", "src/app.ts"]).hunks)).toEqual(gitShas(main.dir, "src/app.ts"));
  });

  test("without the daemon (--no-daemon) the nested worktree answers the same", () => {
    const r = ask(main.dir, ["blame", "--no-daemon", join(nested, "src", "app.ts")]);
    expect(r).toEqual(ask(main.dir, ["blame", join(nested, "src", "app.ts")]));
  });

  test("a path relative to where lore was asked selects the worktree too, and a file only the worktree has is found", () => {
    const r = ask(main.dir, ["blame", ".claude/worktrees/feat/src/new.ts"]);
    expect([r.repo, r.path]).toEqual([nested, "src/new.ts"]);
    expect(perLine(r.hunks)).toEqual(gitShas(nested, "src/new.ts"));
  });

  test("history and log of paths in the nested worktree are git log's there", () => {
    const h = ask(main.dir, ["history", join(nested, "src", "app.ts")]);
    expect(h.commits.map((c: any) => c.sha)).toEqual(gitLogFile(nested, "HEAD", "src/app.ts").map((e) => e.sha));
    const l = ask(main.dir, ["log", join(nested, "src")]);
    expect([l.repo, l.paths]).toEqual([nested, ["src"]]);
    expect(l.commits.map((c: any) => c.sha)).toEqual(gitLog(nested, "src"));
  });

  test("a worktree beside the checkout (git worktree add ../side) is answered at its HEAD", () => {
    const r = ask(main.dir, ["blame", join(side, "src", "app.ts")]);
    expect(r.repo).toBe(side);
    expect(perLine(r.hunks)).toEqual(gitShas(side, "src/app.ts"));
    expect(ask(main.dir, ["log", join(side, "src")]).commits.map((c: any) => c.sha)).toEqual(gitLog(side, "src"));
  });

  test("a detached worktree answers at the commit it has checked out", () => {
    const r = ask(main.dir, ["blame", join(detached, "src", "app.ts")]);
    expect([r.repo, r.rev]).toEqual([detached, runGit(detached, ["rev-parse", "HEAD"]).trim()]);
    expect(perLine(r.hunks)).toEqual(gitShas(detached, "src/app.ts"));
    const s = ask(detached, ["status"]);
    expect([s.head, s.branch, s.state]).toEqual([r.rev, null, "fresh"]);
  });

  test("status in a linked worktree names its own HEAD and the index it shares", () => {
    const s = ask(nested, ["status"]);
    expect([s.repo, s.head, s.branch, s.indexedHead, s.state, s.indexFollows]).toEqual([nested, runGit(nested, ["rev-parse", "HEAD"]).trim(), "feat", main.head(), "fresh", main.dir]);
  });

  test("paths in two worktrees at once are a clear BAD_ARGUMENT", () => {
    const e = fails(main.dir, ["log", join(nested, "src"), join(main.dir, "src")]);
    expect(e.code).toBe("BAD_ARGUMENT");
    expect(e.message).toContain("two worktrees");
  });
});

describe("over RPC", () => {
  test("repo names the main checkout, an absolute path the nested worktree: the answer is the nested worktree's", async () => {
    const prev = process.env.LORE_HOME;
    process.env.LORE_HOME = home;
    try {
      const socket = daemonPaths().socket;
      const b = (await rpcCall(socket, "blame", { repo: main.dir, path: join(nested, "src", "app.ts") })) as any;
      expect([b.repo, b.path]).toEqual([nested, "src/app.ts"]);
      expect(perLine(b.hunks)).toEqual(gitShas(nested, "src/app.ts"));
      // A path relative to the root of repo, into the nested worktree, selects it as well.
      const l = (await rpcCall(socket, "log", { repo: main.dir, paths: [".claude/worktrees/feat/src/new.ts"] })) as any;
      expect([l.repo, l.commits.map((c: any) => c.sha)]).toEqual([nested, gitLog(nested, "src/new.ts")]);
    } finally {
      process.env.LORE_HOME = prev;
    }
  });
});

describe("one index for the worktrees of a repository", () => {
  test("after questions in four worktrees there is one index file, indexed from scratch once", () => {
    const repos = join(home, "repos");
    const withIndex = readdirSync(repos).filter((d) => existsSync(join(repos, d, "index.db")));
    expect(withIndex.length).toBe(1);
    const log = readFileSync(join(home, "daemon.log"), "utf8");
    // A first index logs "indexed <sha> in N ms"; an update "indexed <old>..<new>".
    expect(log.match(/: indexed [0-9a-f]{12} in /g)?.length).toBe(1);
    // One repository opened, watched and warmed once: the background pass speaks only of the main checkout.
    expect(log.match(/\] opened \//g)?.length).toBe(1);
    for (const wt of [nested, side, detached]) expect(log).not.toContain(`${wt}: `);
  });

  test("when one worktree's HEAD moves, its answers follow and the others' stay their own", () => {
    const feat = new TestRepo(nested, false);
    const oldMain = ask(main.dir, ["blame", "src/app.ts"]);
    ask(nested, ["blame", "src/app.ts"]);
    feat.write("src/app.ts", lines(1, "two", "three", 4, "five", 6, 7)).commit("More feature work", ALICE);
    const moved = ask(nested, ["blame", "src/app.ts"]);
    expect(moved.rev).toBe(feat.head());
    expect(perLine(moved.hunks)).toEqual(gitShas(nested, "src/app.ts"));
    expect(ask(main.dir, ["blame", "src/app.ts"])).toEqual(oldMain);
    // And the other way round: the main checkout moves, the worktree's answer is still its HEAD's.
    main.write("docs/guide.md", lines("guide", "more")).commit("Main again", BOB);
    expect(ask(main.dir, ["history", "docs/guide.md"]).commits.map((c: any) => c.sha)).toEqual(gitLogFile(main.dir, "HEAD", "docs/guide.md").map((e) => e.sha));
    expect(ask(nested, ["blame", "src/app.ts"])).toEqual(moved);
    expect(ask(nested, ["history", "docs/guide.md"]).commits.map((c: any) => c.sha)).toEqual(gitLogFile(nested, "HEAD", "docs/guide.md").map((e) => e.sha));
  });
});

describe("over MCP", () => {
  const clients: Client[] = [];
  const connect = async (roots?: string[]) => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("LORE_")) env[k] = v;
    const transport = new StdioClientTransport({ ...loreCommand(["mcp"]), cwd: main.dir, env: { ...env, LORE_HOME: home }, stderr: "pipe" });
    const client = new Client({ name: "lore-test", version: "0" }, roots ? { capabilities: { roots: { listChanged: true } } } : {});
    if (roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.map((r) => ({ uri: `file://${r}` })) }));
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as any;
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
  });

  test("absolute paths into the nested worktree are answered there (structuredContent), like git -C <worktree>", async () => {
    const client = await connect();
    const b = await call(client, "lore_blame", { path: join(nested, "src", "app.ts") });
    expect(b.isError).toBeUndefined();
    expect([b.structuredContent.repo, b.structuredContent.path]).toEqual([nested, "src/app.ts"]);
    expect(perLine(b.structuredContent.hunks)).toEqual(gitShas(nested, "src/app.ts"));
    const h = await call(client, "lore_history", { path: join(nested, "src", "new.ts") });
    expect((expandTuples(h.structuredContent) as any).commits.map((c: any) => c.sha)).toEqual(gitLogFile(nested, "HEAD", "src/new.ts").map((e) => e.sha));
    const l = await call(client, "lore_log", { paths: [join(nested, "src")] });
    expect((expandTuples(l.structuredContent) as any).commits.map((c: any) => c.sha)).toEqual(gitLog(nested, "src"));
  });

  test("a worktree of the repository outside the starting folder is allowed; another repository is not", async () => {
    const client = await connect();
    const s = await call(client, "lore_log", { paths: [join(side, "src")] });
    expect((expandTuples(s.structuredContent) as any).commits.map((c: any) => c.sha)).toEqual(gitLog(side, "src"));
    expect((await call(client, "lore_status", { repo: side })).structuredContent.head).toBe(runGit(side, ["rev-parse", "HEAD"]).trim());
    const other = new TestRepo();
    try {
      other.write("x.txt", "x\n").commit("elsewhere");
      const refused = await call(client, "lore_blame", { path: join(other.dir, "x.txt") });
      expect(refused.isError).toBe(true);
      expect(refused.content[0].text).toStartWith("REPO_NOT_ALLOWED");
    } finally {
      other.cleanup();
    }
  });

  test("a client with roots (Claude Code sends them) makes its first root the default worktree, and its roots readable", async () => {
    const other = new TestRepo();
    try {
      other.write("x.txt", "x\n").commit("a root of its own");
      const roots = [nested, other.dir];
      const client = await connect(roots);
      const s = await call(client, "lore_status", {});
      expect([s.structuredContent.repo, s.structuredContent.head]).toEqual([nested, runGit(nested, ["rev-parse", "HEAD"]).trim()]);
      const b = await call(client, "lore_blame", { path: "src/new.ts" });
      expect(perLine(b.structuredContent.hunks)).toEqual(gitShas(nested, "src/new.ts"));
      expect((await call(client, "lore_status", { repo: other.dir })).structuredContent.repo).toBe(other.dir);
      // The agent moves to another worktree (Claude Code's EnterWorktree): the client says its roots changed.
      roots.splice(0, roots.length, side);
      await client.sendRootsListChanged();
      await until(async () => (await call(client, "lore_status", {})).structuredContent.repo === side, 5000, 50);
    } finally {
      other.cleanup();
    }
  });
});

describe("worktrees gone wrong", () => {
  test("a worktree whose folder was deleted before git worktree prune: a clear error naming the fix", () => {
    const gone = join(main.dir, ".claude", "worktrees", "gone");
    main.git("worktree", "add", "-q", "-b", "gone", gone);
    rmSync(gone, { recursive: true, force: true });
    const path = fails(main.dir, ["blame", join(gone, "src", "app.ts")]);
    expect(path.code).toBe("PATH_NOT_FOUND");
    expect(path.message).toContain("git worktree prune");
    const repo = fails(main.dir, ["status", "--repo", gone]);
    expect(repo.code).toBe("NOT_A_REPO");
    expect(repo.message).toContain("git worktree prune");
    main.git("worktree", "prune");
    before = gitDirHash(main.dir);
  });

  test("a bare repository's linked worktree answers as git does there, and the bare repository is not written", () => {
    const src = new TestRepo();
    const base = tempDir("lore-bare-");
    try {
      src.write("a.txt", lines(1, 2, 3)).commit("one", ALICE);
      src.write("a.txt", lines(1, "two", 3)).commit("two", BOB);
      const bare = join(base, "repo.git");
      runGit(base, ["clone", "-q", "--bare", src.dir, bare]);
      const wt = join(base, "wt");
      runGit(bare, ["worktree", "add", "-q", "-b", "work", wt]);
      const w = new TestRepo(wt, false);
      w.write("a.txt", lines(1, "two", 3, 4)).commit("three", CAROL);
      const hash = () => repoHash(bare);
      const was = hash();
      const r = ask(base, ["blame", join(wt, "a.txt")]);
      expect([r.repo, perLine(r.hunks)]).toEqual([wt, gitShas(wt, "a.txt")]);
      expect(ask(wt, ["log"]).commits.map((c: any) => c.sha)).toEqual(gitLog(wt));
      expect(hash()).toBe(was);
    } finally {
      src.cleanup();
      rmSync(base, { recursive: true, force: true });
    }
  });

  test("nothing in .git was written by any of it", () => {
    ask(main.dir, ["blame", join(nested, "src", "app.ts")]);
    ask(main.dir, ["history", join(side, "src", "app.ts")]);
    expect(gitDirHash(main.dir)).toBe(before);
  });
});

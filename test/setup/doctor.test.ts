import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { ClaudeHome } from "./claude-env.ts";

setDefaultTimeout(30_000);

interface Check {
  name: string;
  status: "ok" | "warn" | "fail";
  message: string;
  fix?: string;
}

let h: ClaudeHome;
let repo: string;

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_DATE: "1700000000 +0000", GIT_COMMITTER_DATE: "1700000000 +0000" } });
  if (r.status !== 0) throw new Error(r.stderr);
}

function doctor(cwd = repo): { code: number; checks: Check[]; byName: Map<string, Check> } {
  const r = h.lore(["doctor", "--json"], cwd);
  const { checks } = JSON.parse(r.stdout) as { checks: Check[] };
  return { code: r.code, checks, byName: new Map(checks.map((c) => [c.name, c])) };
}

beforeAll(() => {
  h = new ClaudeHome();
  chmodSync(h.loreHome, 0o700);
  repo = join(h.dir, "repo");
  mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  git(repo, "config", "user.name", "A");
  git(repo, "config", "user.email", "a@example.com");
  for (let i = 1; i <= 3; i++) {
    writeFileSync(join(repo, "f.txt"), `v${i}\n`);
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", `change ${i}`);
  }
});
afterAll(() => h.cleanup());

describe("lore doctor", () => {
  test("reports every check as JSON, and an unset-up machine has warnings with fixes but no failure", () => {
    const d = doctor();
    expect(d.checks.map((c) => c.name)).toEqual(["git", "daemon", "socket", "index", "claude mcp", "skill", "hook"]);
    for (const c of d.checks) expect(["ok", "warn", "fail"]).toContain(c.status);
    expect(d.byName.get("git")!.status).toBe("ok");
    expect(d.byName.get("daemon")).toMatchObject({ status: "warn", fix: "lore daemon start" });
    expect(d.byName.get("claude mcp")).toMatchObject({ status: "warn", fix: "lore setup" });
    expect(d.byName.get("skill")).toMatchObject({ status: "warn", fix: "lore setup" });
    expect(d.byName.get("index")!.status).toBe("warn");
    expect(d.code).toBe(0);
  });

  test("after setup and a first question, the agent setup and the index are ok", () => {
    expect(h.lore(["setup"], repo).code).toBe(0);
    expect(h.lore(["history", "f.txt"], repo).code).toBe(0);
    const d = doctor();
    expect(d.byName.get("claude mcp")!.status).toBe("ok");
    expect(d.byName.get("skill")!.status).toBe("ok");
    expect(d.byName.get("index")).toMatchObject({ status: "ok" });
    expect(d.code).toBe(0);
  });

  test("the human report marks each check and says the fix", () => {
    const r = h.lore(["doctor"], repo);
    expect(r.stdout).toMatch(/^✓ git /m);
    expect(r.stdout).toMatch(/^! daemon /m);
    expect(r.stdout).toContain("fix: lore daemon start");
  });

  test("a registration Claude Code cannot start is a failure, and doctor exits 1", () => {
    h.claude(["mcp", "remove", "lore", "-s", "user"]);
    h.claude(["mcp", "add-json", "-s", "user", "lore", '{"type":"stdio","command":"/bin/false","args":[]}']);
    const d = doctor();
    expect(d.byName.get("claude mcp")).toMatchObject({ status: "fail", fix: "lore setup" });
    expect(d.code).toBe(1);
    const fixed = h.lore(["setup"], repo);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain("removed the old MCP server");
    expect(fixed.stdout).toContain("✔ Connected");
  });

  test("a socket in a folder others can read is a failure with the chmod that fixes it", async () => {
    chmodSync(h.loreHome, 0o755);
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(join(h.loreHome, "lore.sock"), resolve));
    try {
      const d = doctor();
      expect(d.byName.get("socket")).toMatchObject({ status: "fail", fix: `chmod 700 ${h.loreHome}` });
      expect(d.code).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      chmodSync(h.loreHome, 0o700);
    }
  });

  test("a shallow clone is reported, and outside a repository the index check only warns", () => {
    const shallow = join(h.dir, "shallow");
    git(h.dir, "clone", "-q", "--depth", "1", `file://${repo}`, shallow);
    expect(doctor(shallow).byName.get("shallow")).toMatchObject({ status: "warn", fix: "git fetch --unshallow" });
    const outside = join(h.dir, "plain");
    mkdirSync(outside);
    expect(doctor(outside).byName.get("index")!.status).toBe("warn");
  });
});

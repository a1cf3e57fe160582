/** branches on a built history with real merges, squash merges, rebases, a gone upstream and worktrees, checked against git. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { BOB, TestRepo, runGit, tempDir } from "../helpers/git-repo.ts";
import { ask, cli, isolateHome } from "../helpers/lore.ts";
import { answer } from "../../src/queries/answer.ts";
import { findQuery } from "../../src/queries/index.ts";
import { callTool } from "../../src/mcp/call-tool.ts";
import { RepoScope } from "../../src/mcp/repos.ts";
import { outputSchema } from "../../src/mcp/schemas.ts";
import { expandTuples } from "../../src/mcp/model-rows.ts";

let up: TestRepo;
let repo: TestRepo;
let root = "";
let squashSha = "";
const g = (...args: string[]) => runGit(repo.dir, args).trim();

/** A branch off main with `n` commits of its own file, back on main afterwards. */
function branch(r: TestRepo, name: string, n: number, message = "work"): void {
  r.git("checkout", "-q", "-b", name, "main");
  for (let i = 1; i <= n; i++) r.write(`${name.replace(/\//g, "-")}.txt`, `${name} ${i}\n`).commit(`${message} ${i} on ${name}`, BOB);
  r.git("checkout", "-q", "main");
}

beforeAll(() => {
  isolateHome();
  root = tempDir();
  up = new TestRepo(join(root, "up"), false);
  runGit(root, ["init", "-q", "-b", "main", "up"]);
  up.git("config", "user.name", "Up");
  up.git("config", "user.email", "up@example.com");
  up.write("README", "hello\n").commit("Start");
  branch(up, "merged-real", 2);
  up.merge("merged-real");
  branch(up, "squashed", 3);
  up.git("merge", "-q", "--squash", "squashed");
  squashSha = up.commit("Squashed work (#12)");
  branch(up, "rebased", 2);
  for (const sha of up.git("rev-list", "--reverse", "main..rebased").trim().split("\n")) up.git("cherry-pick", sha);
  branch(up, "open", 2);
  branch(up, "claude/fix-thing", 1);
  up.git("merge", "-q", "--squash", "claude/fix-thing");
  up.commit("Fix the thing");
  up.write("README", "hello\nmore\n").commit("Move main on");
  branch(up, "helper", 1, "Add helper\n\nCo-authored-by: Claude <noreply@anthropic.com>\nx");
  branch(up, "to-go", 1);
  runGit(root, ["clone", "-q", "up", "repo"]);
  repo = new TestRepo(join(root, "repo"), false);
  for (const b of ["squashed", "rebased", "open", "claude/fix-thing", "to-go"]) repo.git("branch", "-q", "--track", b, `origin/${b}`);
  // Deleted on the remote, pruned here: the local branch's upstream is gone.
  up.git("branch", "-q", "-D", "to-go");
  repo.git("fetch", "-q", "--prune");
  repo.git("worktree", "add", "-q", join(root, "wt"), "squashed");
  // A name a shell would run: the printed command must quote it.
  repo.git("branch", "odd/$(id)", "origin/main~1");
  // A fresh branch with today's date, for --stale.
  repo.git("checkout", "-q", "-b", "fresh");
  repo.write("fresh.txt", "new\n");
  runGit(repo.dir, ["add", "-A"]);
  runGit(repo.dir, ["-c", "user.name=Fresh", "-c", "user.email=f@example.com", "commit", "-q", "-m", "Fresh work"]);
  repo.git("checkout", "-q", "main");
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

const byName = (a: any) => Object.fromEntries(a.branches.map((b: any) => [b.name, b]));

describe("branches", () => {
  test("every local and remote-tracking branch is listed once, the default (origin/HEAD's) left out and named", async () => {
    const a = await ask("branches", repo.dir);
    expect(a.default).toBe("origin/main");
    expect(a.rev).toBe(g("rev-parse", "origin/main"));
    const git = g("for-each-ref", "--format=%(refname:short)", "refs/heads", "refs/remotes").split("\n").filter((n) => n !== "origin" && n !== "origin/HEAD" && n !== "origin/main");
    expect(a.branches.map((b: any) => b.name).sort()).toEqual(git.sort());
  });

  test("ahead and behind are git rev-list --left-right --count against the default branch", async () => {
    const a = await ask("branches", repo.dir);
    for (const b of a.branches) {
      const ref = b.remote ? `refs/remotes/${b.name}` : `refs/heads/${b.name}`;
      const [behind, ahead] = g("rev-list", "--left-right", "--count", `origin/main...${ref}`).split(/\s+/).map(Number);
      expect([b.name, b.ahead, b.behind]).toEqual([b.name, ahead, behind]);
      expect(b.sha).toBe(g("rev-parse", "--short=12", ref));
    }
  });

  test("merged by a real merge is what git merge-base --is-ancestor says", async () => {
    const a = await ask("branches", repo.dir);
    for (const b of a.branches) {
      const ref = b.remote ? `refs/remotes/${b.name}` : `refs/heads/${b.name}`;
      const ancestor = runGitOk(["merge-base", "--is-ancestor", ref, "origin/main"]);
      expect([b.name, b.merged === "merge"]).toEqual([b.name, ancestor]);
    }
    expect(byName(a)["origin/merged-real"].merged).toBe("merge");
  });

  test("a rebased (cherry-picked) branch is merged when git cherry marks each commit '-'", async () => {
    const a = await ask("branches", repo.dir);
    const cherry = g("cherry", "origin/main", "rebased").split("\n");
    expect(cherry.length).toBe(2);
    expect(cherry.every((l) => l.startsWith("- "))).toBe(true);
    expect(byName(a).rebased).toMatchObject({ merged: "rebase", ahead: 2 });
    // The open branch has commits git cherry marks "+": not merged.
    expect(g("cherry", "origin/main", "open").split("\n").every((l) => l.startsWith("+ "))).toBe(true);
    expect(byName(a).open.merged).toBeUndefined();
  });

  test("a squash-merged branch is merged when its whole diff has the squash commit's patch-id, and says which commit", async () => {
    const a = await ask("branches", repo.dir);
    const pid = (patch: string) => runGit(repo.dir, ["patch-id", "--stable"], {}, Buffer.from(patch)).split(" ")[0];
    const base = g("merge-base", "origin/main", "squashed");
    expect(pid(g("diff", base, "squashed") + "\n")).toBe(pid(g("show", "--format=", squashSha) + "\n"));
    expect(byName(a).squashed).toMatchObject({ merged: "squash", by: squashSha.slice(0, 12), ahead: 3 });
    expect(byName(a)["claude/fix-thing"]).toMatchObject({ merged: "rebase", agent: "claude" });
  });

  test("upstreams, a gone upstream and the worktree that has a branch are git's", async () => {
    const a = await ask("branches", repo.dir);
    expect(g("for-each-ref", "--format=%(upstream:track)", "refs/heads/to-go")).toBe("[gone]");
    expect(byName(a)["to-go"]).toMatchObject({ upstream: "origin/to-go", gone: true });
    expect(byName(a).open).toMatchObject({ upstream: "origin/open" });
    expect(byName(a).open.gone).toBeUndefined();
    const wt = g("worktree", "list", "--porcelain").split("\n\n").find((s) => s.includes("branch refs/heads/squashed"))!;
    expect(byName(a).squashed.worktree).toBe(wt.split("\n")[0]!.slice("worktree ".length));
    expect(byName(a).main.worktree).toBe(repo.dir);
  });

  test("agent-made: by name prefix or by an agent's trailer; --agent keeps only those", async () => {
    const a = await ask("branches", repo.dir, { agent: true });
    expect(a.branches.map((b: any) => b.name).sort()).toEqual(["claude/fix-thing", "origin/claude/fix-thing", "origin/helper"]);
    expect(a.branches.every((b: any) => b.agent === "claude")).toBe(true);
  });

  test("merged and stalest come first; --merged and --stale filter; the cleanup commands come quoted and in order, none run", async () => {
    const refsBefore = g("for-each-ref");
    const a = await ask("branches", repo.dir);
    const merged = a.branches.map((b: any) => !!b.merged);
    expect(merged).toEqual([...merged].sort((x, y) => Number(y) - Number(x)));
    expect(a.commands).toEqual([
      ...a.branches.filter((b: any) => b.merged && !b.remote && b.name !== "main").flatMap((b: any) => [
        ...(b.worktree ? [`git worktree remove ${b.worktree}`] : []),
        `git branch ${b.merged === "merge" ? "-d" : "-D"} ${b.name.includes("$") ? `'${b.name}'` : b.name}`,
      ]),
    ]);
    expect(a.commands).toContain(`git worktree remove ${join(root, "wt")}`);
    expect(a.commands).toContain("git branch -d 'odd/$(id)'");
    expect(g("for-each-ref")).toBe(refsBefore);
    const m = await ask("branches", repo.dir, { merged: true });
    expect(m.branches.every((b: any) => b.merged)).toBe(true);
    const stale = await ask("branches", repo.dir, { stale: 30 });
    expect(stale.branches.map((b: any) => b.name)).not.toContain("fresh");
    expect(byName(a).fresh).toMatchObject({ ahead: 1, author: "Fresh" });
  });

  test("over MCP the model reads the same branches as rows under columns, each commit's day, in pages that go on", async () => {
    const def = findQuery("branches")!;
    const deps = { scope: new RepoScope(repo.dir), call: (n: string, i: Record<string, unknown>, o: { cwd: string }) => answer(n, i, { cwd: o.cwd }), noDaemon: true, maxBytes: 1500, log: () => {} };
    const whole = await ask("branches", repo.dir);
    const seen: any[] = [];
    let token: string | undefined;
    do {
      const r = await callTool(def, token ? { continue: token } : {}, deps);
      expect(r.isError).toBeUndefined();
      expect(outputSchema(def).safeParse(r.structuredContent).success).toBe(true);
      const page = expandTuples(r.structuredContent) as any;
      seen.push(...page.branches);
      token = page.continue;
      expect(r.content[0]!.text).toContain(token ?? "");
    } while (token);
    expect(seen).toEqual(whole.branches.map((b: any) => ({ ...b, time: b.time.slice(0, 10) })));
  });

  test("the CLI prints a table and the commands, and --json the same answer", () => {
    const r = cli(repo.dir, ["branches", "--merged"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("squashed");
    expect(r.stdout).toContain("git branch -D squashed");
    const j = cli(repo.dir, ["branches", "--json", "--stale", "30"]);
    expect(j.json.default).toBe("origin/main");
    const bad = cli(repo.dir, ["branches", "--stale", "soon"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--stale");
  });
});

function runGitOk(args: string[]): boolean {
  try {
    runGit(repo.dir, args);
    return true;
  } catch {
    return false;
  }
}

/** Provenance on a generated history with each kind of signal: agents by trailer, line, author and note; prs through merges; releases and their families; ignore-revs. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ALICE, BOB, TestRepo, runGit } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";

isolateHome();

const SIGNALS: [message: string, agent: string | undefined][] = [
  ["claude trailer\n\nCo-authored-by: Claude <noreply@anthropic.com>", "claude"],
  ["claude line\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)", "claude"],
  ["copilot co-author\n\nCo-authored-by: Copilot <198982749+Copilot@users.noreply.github.com>", "copilot"],
  ["cursor co-author\n\nCo-authored-by: Cursor Agent <cursoragent@cursor.com>", "cursor"],
  ["aider co-author\n\nCo-authored-by: aider (gpt-4o) <noreply@aider.chat>", "aider"],
  ["entire with agent\n\nEntire-Checkpoint: 1a2b3c4d\nEntire-Agent: Claude Code", "claude"],
  ["entire alone\n\nEntire-Checkpoint: 5e6f7a8b", "entire"],
  ["a person co-author\n\nCo-authored-by: Bob Example <bob@example.com>", undefined],
  ["mentions Claude and Copilot in passing, and the #42 issue", undefined],
];

describe("provenance on a generated history", () => {
  const repo = new TestRepo();
  const shas = new Map<string, string>();
  let noted = "";
  let gitAi = "";
  let devin = "";
  let branchCommit = "";
  let merge = "";
  let squash = "";

  beforeAll(() => {
    repo.write("a.txt", "0\n").commit("start");
    SIGNALS.forEach(([message], i) => shas.set(message, repo.write("a.txt", `${i + 1}\n`).commit(message)));
    devin = repo.write("d.txt", "d\n").commit("by a bot", { name: "devin-ai-integration[bot]", email: "158243242+devin-ai-integration[bot]@users.noreply.github.com" });
    noted = repo.write("n.txt", "n\n").commit("noted by whogitit");
    gitAi = repo.write("g.txt", "g\n").commit("noted by git-ai");
    repo.git("notes", "--ref=whogitit", "add", "-m", "tool: cursor\nlines: 1-3", noted);
    repo.git("notes", "--ref=ai", "add", "-m", 'src/g.txt\n  abc 1-2\n---\n{"schema_version":"authorship/3.0.0","prompts":{"abc":{"agent_id":{"tool":"claude","id":"s1","model":"claude-opus"}}}}', gitAi);
    repo.git("tag", "v1.0.0");
    repo.git("tag", "1.1.0-rc.1");
    repo.git("checkout", "-q", "-b", "topic");
    branchCommit = repo.write("t.txt", "t\n").commit("work on the topic", BOB);
    repo.git("checkout", "-q", "main");
    merge = repo.merge("topic", "Merge pull request #7 from bob/topic\n\nTopic work");
    squash = repo.write("s.txt", "s\n").commit("feat: squashed (#8)");
    repo.git("tag", "1.1.0-rc.2");
    repo.git("tag", "-a", "-m", "release", "v1.1.0");
    // A monorepo package with releases of its own.
    repo.write("packages/web/package.json", JSON.stringify({ name: "@acme/web" })).write("packages/web/i.ts", "x\n").commit("web package");
    repo.git("tag", "@acme/web@0.1.0");
  });
  afterAll(() => repo.cleanup());

  test("agent is set from each kind of signal and on no other commit, by log and show", async () => {
    const r = await ask("log", repo.dir, { limit: 100 });
    const bySubject = new Map(r.commits.map((c: any) => [c.subject, c.agent]));
    for (const [message, agent] of SIGNALS) expect([message, bySubject.get(message.split("\n")[0])]).toEqual([message, agent]);
    expect(bySubject.get("by a bot")).toBe("devin");
    expect(r.commits.find((c: any) => devin.startsWith(c.sha)).agent).toBe("devin");
    expect(bySubject.get("noted by whogitit")).toBe("cursor");
    expect(bySubject.get("noted by git-ai")).toBe("claude");
    for (const s of ["start", "work on the topic", "feat: squashed (#8)", "web package"]) expect(bySubject.get(s)).toBeUndefined();
    const show = await ask("show", repo.dir, { rev: gitAi });
    expect(show.agentSignal).toBe("note refs/notes/ai");
  });

  test("pr comes from a squash subject, a merge's subject, and the merge for the commits it brought in; none is guessed from #42 in passing", async () => {
    const r = await ask("log", repo.dir, { limit: 100 });
    const prOf = (sha: string) => r.commits.find((c: any) => sha.startsWith(c.sha))?.pr;
    expect([prOf(merge), prOf(branchCommit), prOf(squash)]).toEqual([7, 7, 8]);
    expect(prOf(shas.get(SIGNALS[8]![0])!)).toBeUndefined();
  });

  test("release is the first release tag in version order that holds the commit, a pre-release before its release, unreleased after the last", async () => {
    const tagged = (sha: string) => runGit(repo.dir, ["tag", "--contains", sha]).split("\n").filter(Boolean).sort();
    expect(tagged(branchCommit)).toEqual(["1.1.0-rc.2", "@acme/web@0.1.0", "v1.1.0"]);
    const h = await ask("history", repo.dir, { path: "t.txt" });
    expect(h.commits[0].release).toBe("1.1.0-rc.2");
    const a = await ask("history", repo.dir, { path: "a.txt", limit: 1 });
    expect(a.commits[0].release).toBe("v1.0.0");
    // The package's own family: its folder's files name its releases.
    const web = await ask("history", repo.dir, { path: "packages/web/i.ts" });
    expect(web.commits[0].release).toBe("@acme/web@0.1.0");
    repo.write("u.txt", "u\n").commit("after the last release");
    const u = await ask("history", repo.dir, { path: "u.txt" });
    expect(u.commits[0].release).toBe("unreleased");
  });

  test("a new tag is seen at the next question: the commit it holds names it", async () => {
    repo.git("tag", "v1.2.0");
    const u = await ask("history", repo.dir, { path: "u.txt" });
    expect(u.commits[0].release).toBe("v1.2.0");
  });

  test("blame's commits table carries pr, release and agent as a fourth element, only where known", async () => {
    const b = await ask("blame", repo.dir, { path: "a.txt" });
    const [sha] = Object.keys(b.commits);
    expect(b.commits[sha!]).toEqual([ALICE.name, expect.any(String), "mentions Claude and Copilot in passing, and the #42 issue", { release: "v1.0.0" }]);
    const t = await ask("blame", repo.dir, { path: "t.txt" });
    expect(Object.values(t.commits)[0]).toEqual([BOB.name, expect.any(String), "work on the topic", { pr: 7, release: "1.1.0-rc.2" }]);
  });
});

describe("commits named in .git-blame-ignore-revs", () => {
  const repo = new TestRepo();
  let reformat = "";

  beforeAll(() => {
    repo.write("x.js", "a\n").write("y.js", "b\n").commit("start");
    for (let i = 0; i < 3; i++) repo.write("x.js", `a${i}\n`).commit(`x ${i}`);
    reformat = repo.write("x.js", "A\n").write("y.js", "B\n").write("z.js", "C\n").commit("style: reformat everything");
    repo.write(".git-blame-ignore-revs", `# formatting\n${reformat}\n`).commit("ignore the reformat");
  });
  afterAll(() => repo.cleanup());

  test("history and log mark them ignored: true, and nothing else", async () => {
    const h = await ask("history", repo.dir, { path: "x.js" });
    expect(h.commits.filter((c: any) => c.ignored).map((c: any) => c.subject)).toEqual(["style: reformat everything"]);
    const l = await ask("log", repo.dir, {});
    expect(l.commits.filter((c: any) => c.ignored).map((c: any) => c.subject)).toEqual(["style: reformat everything"]);
  });

  test("hotspots and cochange leave them out, and all brings them back", async () => {
    const hot = await ask("hotspots", repo.dir, {});
    const count = (r: any, p: string) => r.results.find((x: any) => x.path === p)?.commits;
    // git log counts x.js's commits with the reformat; hotspots without it.
    const gitCount = runGit(repo.dir, ["rev-list", "--count", "HEAD", "--", "x.js"]).trim();
    expect(count(hot, "x.js")).toBe(Number(gitCount) - 1);
    expect(count(await ask("hotspots", repo.dir, { all: true }), "x.js")).toBe(Number(gitCount));
    const co = await ask("cochange", repo.dir, { paths: ["z.js"] });
    expect(co.results).toEqual([]);
    const all = await ask("cochange", repo.dir, { paths: ["z.js"], all: true });
    expect(all.results.map((r: any) => r.path).sort()).toEqual(["x.js", "y.js"]);
  });
});

describe("lines written with agents, beside the people", () => {
  const repo = new TestRepo();

  beforeAll(() => {
    repo.write("src/a.ts", "1\n2\n3\n4\n").commit("alice writes a");
    repo.write("src/a.ts", "1\n2\nthree\nfour\nfive\n").commit("bob with claude\n\nCo-authored-by: Claude <noreply@anthropic.com>", BOB);
    repo.write("src/b.ts", "x\ny\n").commit("alice with copilot\n\nCo-authored-by: Copilot <198982749+Copilot@users.noreply.github.com>");
    repo.write("lib/c.ts", "c\n").commit("bob alone", BOB);
  });
  afterAll(() => repo.cleanup());

  /** Lines per agent as git blame attributes them, each commit's agent read from its message by git log --grep. */
  function gitAgentLines(): Map<string, number> {
    const claude = new Set(runGit(repo.dir, ["log", "-i", "--grep=co-authored-by: claude", "--format=%H"]).split("\n").filter(Boolean));
    const copilot = new Set(runGit(repo.dir, ["log", "-i", "--grep=co-authored-by: copilot", "--format=%H"]).split("\n").filter(Boolean));
    const out = new Map<string, number>();
    for (const f of runGit(repo.dir, ["ls-files"]).split("\n").filter(Boolean)) {
      for (const line of runGit(repo.dir, ["blame", "--porcelain", "--", f]).split("\n")) {
        const sha = /^([0-9a-f]{40}) \d+ \d+/.exec(line)?.[1];
        const agent = sha && (claude.has(sha) ? "claude" : copilot.has(sha) ? "copilot" : "");
        if (agent) out.set(agent, (out.get(agent) ?? 0) + 1);
      }
    }
    return out;
  }

  test("contributors says each agent's lines as git blame finds them; people keep every line, and agent and unassisted lines add up to the total", async () => {
    const c = await ask("contributors", repo.dir, {});
    const expected = gitAgentLines();
    expect(Object.fromEntries(Object.entries(c.agents).map(([a, v]: [string, any]) => [a, v.lines]))).toEqual(Object.fromEntries(expected));
    const people = c.results.reduce((n: number, r: any) => n + r.lines, 0);
    expect(people).toBe(c.totalLines);
    const assisted = c.results.reduce((n: number, r: any) => n + (r.agentLines ?? 0), 0);
    expect(assisted).toBe([...expected.values()].reduce((a, b) => a + b, 0));
    expect(c.results.map((r: any) => r.author)).not.toContain("Claude");
    const ranked = await ask("contributors", repo.dir, { by: "agent" });
    expect(ranked.results[0].author).toBe(BOB.name);
  });

  test("owners shows agent lines per path and row, never an agent as an owner or in the truck factor", async () => {
    const o = await ask("owners", repo.dir, { by: "folder" });
    const total = o.authors.reduce((n: number, a: any) => n + a.lines, 0);
    expect(total).toBe(o.lines);
    expect(o.agents.claude.lines + o.agents.copilot.lines).toBe([...gitAgentLines().values()].reduce((a, b) => a + b, 0));
    const src = o.results.find((r: any) => r.path === "src");
    expect(src.agents).toEqual({ claude: { lines: 3, share: 0.43 }, copilot: { lines: 2, share: 0.29 } });
    expect(o.results.find((r: any) => r.path === "lib").agents).toBeUndefined();
    for (const a of [...o.authors, ...o.truckAuthors]) expect([ALICE.name, BOB.name]).toContain(a.author);
  });
});

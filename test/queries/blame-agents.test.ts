/** blame's lines by coding agent, on a generated history with agent commits among people's: held to git blame --porcelain and the trailers git log finds, whole, by range, by page and on disk. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { forModel } from "../../src/mcp/model-view.ts";
import { BOB, CAROL, runGit, TestRepo } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { agentsByGit } from "../helpers/provenance-truth.ts";

isolateHome();

/** Who writes each commit: a person alone, or with Claude (trailer or line) or Copilot. */
const MESSAGES = [
  "tidy by hand",
  "with claude\n\nCo-authored-by: Claude <noreply@anthropic.com>",
  "with copilot\n\nCo-authored-by: Copilot <198982749+Copilot@users.noreply.github.com>",
  "by hand again",
  "claude code\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)",
];
const LINES = 240;

/** { agent: { lines, share } } as git says it: git blame --porcelain's line per commit (of the work tree's file when `rev` is none), each commit's agent by git log's grep of its trailers. */
function gitAgents(dir: string, path: string, range?: [number, number], rev: string[] = ["HEAD"]): Record<string, { lines: number; share: number }> {
  const agents = agentsByGit(dir);
  const counts = new Map<string, number>();
  let total = 0;
  const out = runGit(dir, ["blame", "--porcelain", ...(range ? ["-L", range.join(",")] : []), ...rev, "--", path]);
  for (const line of out.split("\n")) {
    const sha = /^([0-9a-f]{40}) \d+ \d+/.exec(line)?.[1];
    if (!sha) continue;
    total++;
    const agent = agents.get(sha);
    if (agent) counts.set(agent, (counts.get(agent) ?? 0) + 1);
  }
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  return Object.fromEntries(sorted.map(([a, n]) => [a, { lines: n, share: Math.round((n / total) * 100) / 100 }]));
}

/** The agents an answer's own hunks and commits table say, counted line by line. */
function agentsOfHunks(r: any): Map<string, number> {
  const out = new Map<string, number>();
  for (const [start, end, sha] of r.hunks) {
    const agent = sha === null ? undefined : r.commits[sha]?.[3]?.agent;
    if (agent) out.set(agent, (out.get(agent) ?? 0) + end - start + 1);
  }
  return out;
}

const linesOf = (agents: Record<string, { lines: number }> | undefined) => Object.fromEntries(Object.entries(agents ?? {}).map(([a, v]) => [a, v.lines]));

describe("blame's lines by agent", () => {
  const repo = new TestRepo();

  beforeAll(() => {
    let text = Array.from({ length: LINES }, (_, i) => `line ${i + 1}`);
    repo.write("src/big.ts", text.join("\n") + "\n").write("src/plain.ts", "a\nb\nc\n").commit("start");
    // Each commit rewrites a run of lines somewhere (a fixed walk, not random): agents' runs and people's interleave.
    for (let c = 0; c < 40; c++) {
      const from = (c * 37) % (LINES - 30);
      const len = 5 + ((c * 13) % 25);
      text = text.map((l, i) => (i >= from && i < from + len ? `line ${i + 1} by commit ${c}` : l));
      repo.write("src/big.ts", text.join("\n") + "\n");
      const [subject, ...body] = MESSAGES[c % MESSAGES.length]!.split("\n");
      // plain.ts is changed by people alone.
      if (c % MESSAGES.length === 0 || c % MESSAGES.length === 3) repo.write("src/plain.ts", `a\nb ${c}\nc\n`);
      repo.commit([`${subject} ${c}`, ...body].join("\n"), c % 2 ? BOB : CAROL);
    }
  });
  afterAll(() => repo.cleanup());

  test("a whole file's agents are git blame's lines whose commits carry each agent's trailer, with their share of the file, most lines first", async () => {
    const b = await ask("blame", repo.dir, { path: "src/big.ts" });
    const truth = gitAgents(repo.dir, "src/big.ts");
    expect(Object.keys(truth).sort()).toEqual(["claude", "copilot"]);
    expect(b.agents).toEqual(truth);
    expect(Object.keys(b.agents)).toEqual(Object.keys(truth));
    // The people stay credited: every line is still in a hunk with its commit and author.
    expect(b.hunks.reduce((n: number, [s, e]: number[]) => n + e - s + 1, 0)).toBe(LINES);
  });

  test("a range counts only its own lines", async () => {
    for (const range of [[40, 120], [1, 1], [200, 240]] as [number, number][]) {
      const b = await ask("blame", repo.dir, { path: "src/big.ts", startLine: range[0], endLine: range[1] });
      const truth = gitAgents(repo.dir, "src/big.ts", range);
      expect({ range, agents: b.agents }).toEqual({ range, agents: Object.keys(truth).length ? truth : undefined });
    }
  });

  test("a file no agent wrote a line of has no agents field", async () => {
    const b = await ask("blame", repo.dir, { path: "src/plain.ts" });
    expect(gitAgents(repo.dir, "src/plain.ts")).toEqual({});
    expect(Object.keys(b.commits).length).toBeGreaterThan(0);
    expect("agents" in b).toBe(false);
  });

  test("each page counts only the lines of the hunks it holds, and the pages add up to the whole", async () => {
    const whole = await ask("blame", repo.dir, { path: "src/big.ts" });
    const pages = [await ask("blame", repo.dir, { path: "src/big.ts", budget: 1024 })];
    while (pages.at(-1).continue && pages.length < 40) pages.push(await ask("blame", repo.dir, { path: "src/big.ts", budget: 1024, continue: pages.at(-1).continue }));
    expect(pages.length).toBeGreaterThan(2);
    const sum = new Map<string, number>();
    for (const p of pages) {
      const own = agentsOfHunks(p);
      const held = p.hunks.reduce((n: number, [s, e]: number[]) => n + e - s + 1, 0);
      expect(linesOf(p.agents)).toEqual(Object.fromEntries(own));
      // The model's copy of a continued page keeps them, as lines.
      expect(forModel("blame", p, false, { path: "src/big.ts" }).agents).toEqual(own.size ? Object.fromEntries(own) : undefined);
      for (const v of Object.values(p.agents ?? {}) as any[]) expect(v.share).toBe(Math.round((v.lines / held) * 100) / 100);
      for (const [a, n] of own) sum.set(a, (sum.get(a) ?? 0) + n);
    }
    expect(Object.fromEntries(sum)).toEqual(linesOf(whole.agents));
  });

  test("the file on disk: uncommitted lines are lines of the file but no agent's, the rest as git blame of the work tree says", async () => {
    const committed = runGit(repo.dir, ["show", "HEAD:src/big.ts"]).split("\n");
    // New lines at the top and an agent's line (or a person's) rewritten.
    const edited = ["new 1", "new 2", ...committed.slice(0, 60), "rewritten", ...committed.slice(61)];
    repo.write("src/big.ts", edited.join("\n"));
    try {
      const b = await ask("blame", repo.dir, { path: "src/big.ts" });
      expect(b.worktree).toBe(true);
      expect(b.hunks.some((h: unknown[]) => h[2] === null)).toBe(true);
      expect(b.agents).toEqual(gitAgents(repo.dir, "src/big.ts", undefined, []));
    } finally {
      runGit(repo.dir, ["checkout", "--", "src/big.ts"]);
    }
  });
});

/** A branch with no commits (git checkout --orphan) in a repository that has them: every question says HEAD is that unborn branch, and answers as of a revision that exists, in the main worktree and in a linked one. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { runGit, TestRepo, tempDir } from "../helpers/git-repo.ts";
import { ask, cli, isolateHome } from "../helpers/lore.ts";

let r: TestRepo;
let wt: string;
let main: string;

/** Every question an unborn HEAD leaves nothing to answer about, with what it takes; `until` is added where the test asks as of main. */
const QUESTIONS: [string, Record<string, unknown>][] = [
  ["log", {}],
  ["blame", { path: "src/a.ts" }],
  ["history", { path: "src/a.ts" }],
  ["intent", { path: "src/a.ts", startLine: 1, endLine: 2 }],
  ["search", { query: "fix" }],
  ["cochange", { paths: ["src/a.ts"] }],
  ["hotspots", {}],
  ["contributors", {}],
  ["owners", {}],
];

beforeAll(() => {
  isolateHome();
  r = new TestRepo();
  for (let i = 1; i <= 3; i++) r.write("src/a.ts", Array.from({ length: i }, (_, k) => `line ${k}\n`).join("")).write("b.txt", `${i}\n`).commit(`fix ${i}`);
  main = r.head();
  wt = join(tempDir(), "wt");
  r.git("worktree", "add", "-q", wt);
  r.git("checkout", "-q", "--orphan", "fresh");
  runGit(wt, ["checkout", "-q", "--orphan", "fresh2"]);
}, 60_000);

afterAll(() => r.cleanup());

for (const [where, dir, branch] of [["the main worktree", () => r.dir, "fresh"], ["a linked worktree", () => wt, "fresh2"]] as const) {
  describe(`on an unborn branch in ${where}`, () => {
    test("every question says HEAD is the unborn branch, not that the repository is empty", async () => {
      for (const [name, input] of [...QUESTIONS, ["show", { rev: "HEAD" }] as [string, Record<string, unknown>], ["compare", { base: "main" }] as [string, Record<string, unknown>], ["review", {}] as [string, Record<string, unknown>]]) {
        const err = await ask(name, dir(), input).then(
          () => undefined,
          (e) => e,
        );
        expect({ name, code: err?.code }).toEqual({ name, code: "NO_COMMITS" });
        expect(err.message).toContain(`HEAD is the unborn branch ${branch}`);
        expect(err.message).not.toContain("This repository has no commits");
        expect(err.message).toContain("--until main");
      }
    });

    test("every question answers as of a revision that exists (--until main), as git says", async () => {
      for (const [name, input] of QUESTIONS) {
        const a = await ask(name, dir(), { ...input, until: "main" });
        expect({ name, rev: a.rev }).toEqual({ name, rev: main });
      }
      const log = await ask("log", dir(), { until: "main" });
      expect(log.commits.map((c: any) => c.sha)).toEqual(r.git("rev-list", "--abbrev-commit", "--abbrev=12", "main").trim().split("\n"));
      const blame = await ask("blame", dir(), { path: "src/a.ts", until: "main" });
      const porcelain = r.git("blame", "--line-porcelain", "main", "--", "src/a.ts");
      expect(blame.hunks.map((h: any) => h[2])).toEqual([...porcelain.matchAll(/^([0-9a-f]{40}) \d+ \d+ 1$/gm)].map((m) => m[1]!.slice(0, 12)));
      const show = await ask("show", dir(), { rev: "main" });
      expect(show.sha).toBe(main);
    });

    test("the CLI says it in one line, and status names the branch", async () => {
      const run = cli(dir(), ["log"]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`HEAD is the unborn branch ${branch}`);
      expect(run.stderr).toContain("[NO_COMMITS]");
      expect(cli(dir(), ["log", "--until", "main", "--json"]).json.rev).toBe(main);
      const s = await ask("status", dir());
      expect(s).toMatchObject({ head: null, branch, indexedHead: main, state: "fresh" });
      expect(cli(dir(), ["status"]).stdout).toContain(`none: ${branch} is an unborn branch`);
      const doctor = cli(dir(), ["doctor", "--json"], { PATH: "/usr/bin:/bin" }).json.checks;
      expect(doctor.find((c: any) => c.name === "head")).toMatchObject({ status: "warn", message: expect.stringContaining(`HEAD is the unborn branch ${branch}`) });
    });
  });
}

test("a repository with no commits at all still says so", async () => {
  const e = new TestRepo();
  try {
    const err = await ask("log", e.dir).catch((x) => x);
    expect(err.code).toBe("NO_COMMITS");
    expect(err.message).toContain("This repository has no commits yet");
  } finally {
    e.cleanup();
  }
});

/** log, show and compare compared with git on the story repository and on a generated history dense in merges and renames. */
import { beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateRepo } from "../bench/gen-repo.ts";
import { runGit, tempDir, TestRepo } from "../helpers/git-repo.ts";
import { ask, cli, isolateHome } from "../helpers/lore.ts";
import { expectCompareLikeGit, expectLogLikeGit, expectShowLikeGit } from "../helpers/repo-questions.ts";
import { buildStoryRepo } from "../helpers/story-repo.ts";

let story: TestRepo;
let gen = "";

beforeAll(async () => {
  isolateHome();
  story = buildStoryRepo();
  story.git("branch", "side-start", "HEAD~4^2");
  story.git("checkout", "-q", "-b", "feature", "HEAD~3");
  story.write("src/feature.js", "export const f = 1;\n");
  story.commit("Add a feature");
  story.write("README.md", "# Story\n\nRewritten on the feature branch.\n");
  story.commit("Rewrite the README");
  story.git("checkout", "-q", "main");
  gen = join(tempDir(), "generated");
  await generateRepo({ dir: gen, commits: 600, files: 120, seed: 11 });
}, 120_000);

function genWhere() {
  const files = runGit(gen, ["ls-files"]).split("\n").filter(Boolean);
  // The busiest top folder: the one whose history has the most merges and renames in it.
  const counts = new Map<string, number>();
  for (const f of files) if (f.includes("/")) counts.set(f.split("/")[0]!, (counts.get(f.split("/")[0]!) ?? 0) + 1);
  const folder = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  const author = runGit(gen, ["log", "--use-mailmap", "-n", "1", "--skip=7", "--format=%aN"]).trim().split(" ")[0]!.toLowerCase();
  const merge = runGit(gen, ["log", "--merges", "-n", "1", "--skip=3", "--format=%H"]).trim();
  return { folder, file: files[Math.floor(files.length / 2)]!, author, not: `${merge}^2`, merge };
}

describe("log", () => {
  test("equals git log --numstat -M on the story repository, flag by flag", async () => {
    await expectLogLikeGit(story.dir, { folder: "src", file: "src/main.js", author: "carol", not: "side-start" });
  });

  test("equals git log --numstat -M on a generated history with merges and renames, flag by flag", async () => {
    await expectLogLikeGit(gen, genWhere());
  }, 120_000);

  test("a rename across a path's edge is an add or a delete under it, as git's rename detection sees only the path", async () => {
    const out = await ask("log", story.dir, { paths: ["src/app.js"] });
    expect(out.commits[0].files).toEqual([{ path: "src/app.js", additions: 0, deletions: 12, status: "D" }]);
  });

  test("bad input is refused with a code, and the index answers after it", async () => {
    for (const [input, code] of [
      [{ not: "no-such-branch" }, "BAD_REVISION"],
      [{ until: "nope" }, "BAD_REVISION"],
      [{ paths: ["/etc"] }, "PATH_OUTSIDE_REPO"],
      [{ paths: ["no/such/dir"] }, "PATH_NOT_FOUND"],
      [{ since: "banana" }, "BAD_ARGUMENT"],
      [{ limit: 0 }, "BAD_ARGUMENT"],
    ] as const) {
      expect(await ask("log", story.dir, input).catch((e) => e.code)).toBe(code);
    }
    expect((await ask("log", story.dir, { limit: 1 })).commits).toHaveLength(1);
  });

  test("the CLI lists commits with their files and says how to get more", () => {
    const r = cli(story.dir, ["log", "-n", "2", "src"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Export a default");
    expect(r.stdout).toContain("src/main.js");
    expect(r.stdout).toContain("-n 4");
  });
});

/** Runs `fn` with git on the PATH replaced by a wrapper that records each call; returns the calls' arguments. */
async function gitCalls(fn: () => Promise<unknown>): Promise<string[]> {
  const bin = tempDir("lore-git-spy-");
  const record = join(bin, "calls");
  const real = Bun.which("git")!;
  writeFileSync(join(bin, "git"), `#!/bin/sh\necho "$*" >> ${JSON.stringify(record)}\nexec ${JSON.stringify(real)} "$@"\n`);
  chmodSync(join(bin, "git"), 0o755);
  const path = process.env.PATH;
  process.env.PATH = `${bin}:${path}`;
  try {
    await fn();
  } finally {
    process.env.PATH = path;
  }
  // The subcommand of each call, after lore's pinned options.
  return existsSync(record) ? readFileSync(record, "utf8").split("\n").filter(Boolean).map((c) => c.replace(/^--no-pager( -c \S+)*( --literal-pathspecs)?/, "").trim()) : [];
}

describe("log from the index", () => {
  test("log -n 20 and log -n 20 DIR ask git nothing once the index is fresh, merges and all", async () => {
    const { folder } = genWhere();
    await ask("log", gen, { limit: 20, paths: [folder] });
    await ask("log", gen, { limit: 20 });
    const calls = await gitCalls(async () => {
      await ask("log", gen, { limit: 20, paths: [folder] });
      await ask("log", gen, { limit: 20 });
    });
    // The spy sees finding the repository too (rev-parse): nothing that reads history.
    expect(calls.filter((c) => !c.startsWith("rev-parse --is-bare-repository"))).toEqual([]);
    const spied = await gitCalls(() => ask("log", gen, { limit: 20, not: "HEAD~5" }));
    expect(spied.some((c) => c.startsWith("log"))).toBe(true);
  });
});

describe("show", () => {
  test("equals git show (facts, files with +/-, patches) for ordinary commits, a merge, a rename, a root, a binary and a commit off the indexed branch", async () => {
    await expectShowLikeGit(story.dir, ["HEAD", "HEAD~1", "HEAD~4", "HEAD~6", "HEAD~8", "feature"]);
  });

  test("equals git show on a generated history, merges against their first parent", async () => {
    const { merge } = genWhere();
    await expectShowLikeGit(gen, ["HEAD", "HEAD~5", merge, `${merge}^2`]);
  }, 60_000);

  test("REV:PATH is the file as it was, cut to a range with -L", async () => {
    const whole = await ask("show", story.dir, { rev: "HEAD~2:src/main.js" });
    expect(whole.text).toBe(runGit(story.dir, ["show", "HEAD~2:src/main.js"]));
    expect(whole.lines).toBe(14);
    const part = await ask("show", story.dir, { rev: "HEAD:src/main.js", startLine: 2, endLine: 3 });
    expect(part).toMatchObject({ range: [2, 3], text: "import './util.js';\nconst a0 = 1;\n", truncated: false });
    const cliOut = cli(story.dir, ["show", "HEAD:README.md", "-L", "1,1"]);
    expect(cliOut.stdout.trim()).toBe("# Story");
  });

  test("REV:PATH says what is wrong: a binary, a folder, a path not in that commit, an unknown revision", async () => {
    const first = runGit(story.dir, ["rev-list", "--max-parents=0", "HEAD"]).trim();
    const err = (rev: string) => ask("show", story.dir, { rev }).catch((e) => e);
    expect((await err("HEAD:logo.png")).code).toBe("BINARY_FILE");
    expect((await err("HEAD:src")).code).toBe("NOT_A_FILE");
    const missing = await err(`${first}:src/util.js`);
    expect(missing.code).toBe("PATH_NOT_FOUND");
    expect(missing.message).toContain(first.slice(0, 12));
    expect((await err("nope")).code).toBe("BAD_REVISION");
    expect((await err("HEAD:../outside")).code).toBe("PATH_OUTSIDE_REPO");
  });
});

describe("compare", () => {
  test("equals git on a branch that left main: merge base, ahead/behind, commits, files", async () => {
    await expectCompareLikeGit(story.dir, "main", "feature");
    await expectCompareLikeGit(story.dir, "main", "feature", ["src"]);
    await expectCompareLikeGit(story.dir, "feature", "main");
  });

  test("equals git on a generated history", async () => {
    const { merge } = genWhere();
    await expectCompareLikeGit(gen, `${merge}^2`, "HEAD~3");
    await expectCompareLikeGit(gen, "HEAD~40", "HEAD");
  }, 60_000);

  test("the CLI takes a second word as HEAD unless it is a path or comes after --", () => {
    const asHead = cli(story.dir, ["compare", "--json", "main", "feature"]).json;
    expect(asHead.head).toBe(runGit(story.dir, ["rev-parse", "feature"]).trim());
    const asPath = cli(story.dir, ["compare", "--json", "HEAD~3", "src"]).json;
    expect(asPath.head).toBe(runGit(story.dir, ["rev-parse", "HEAD"]).trim());
    expect(asPath.files.every((f: { path: string }) => f.path.startsWith("src/"))).toBe(true);
    const forced = cli(story.dir, ["compare", "--json", "main", "--", "feature"]).json;
    expect(forced.head).toBe(runGit(story.dir, ["rev-parse", "HEAD"]).trim());
  });

  test("no common history is BAD_REVISION saying so", async () => {
    story.git("checkout", "-q", "--orphan", "lonely");
    story.write("alone.txt", "alone\n");
    story.commit("Alone");
    story.git("checkout", "-q", "main");
    const e = await ask("compare", story.dir, { base: "lonely" }).catch((x) => x);
    expect(e.code).toBe("BAD_REVISION");
    expect(e.message).toContain("no common history");
  });
});

describe("paths are literal", () => {
  test("a * in a name is just a character for log, show and compare", async () => {
    const r = new TestRepo();
    r.write("glob*.js", "literal\n");
    r.commit("Add the starred file");
    r.write("globber.js", "other\n");
    r.commit("Add a file the star would match");
    r.write("glob*.js", "literal, changed\n");
    r.write("globber.js", "other, changed\n");
    r.commit("Change both");
    const log = await ask("log", r.dir, { paths: ["glob*.js"], firstParent: true });
    expect(log.commits.map((c: { subject: string }) => c.subject)).toEqual(["Change both", "Add the starred file"]);
    expect(log.commits[0].files.map((f: { path: string }) => f.path)).toEqual(["glob*.js"]);
    expect((await ask("show", r.dir, { rev: "HEAD~1:glob*.js" })).text).toBe("literal\n");
    const cmp = await ask("compare", r.dir, { base: "HEAD~2", paths: ["glob*.js"] });
    expect(cmp.files.map((f: { path: string }) => f.path)).toEqual(["glob*.js"]);
  });
});

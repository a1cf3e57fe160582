import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { checkGitArgs } from "../../src/git/allow-list.ts";
import { TestRepo, lines, runGit, tempDir } from "../helpers/git-repo.ts";
import { ask, cli, isolateHome } from "../helpers/lore.ts";
import { repoHash } from "../helpers/repo-hash.ts";

let repo: TestRepo;
let before: string;
const filterRan = join(tempDir("lore-filter-"), "ran");

beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  repo.write("a.txt", lines(1, 2, 3)).write("src/b.ts", "export const b = 1;\n");
  repo.write("big.txt", Array.from({ length: 3000 }, (_, i) => `line ${i} `.padEnd(40, "x")).join("\n") + "\n");
  repo.commit("first");
  repo.write("a.txt", lines(1, 2, 3, 4));
  repo.commit("second");
  repo.git("tag", "v1");
  repo.write("a.txt", lines(1, 2, 3, 4, 5)); // a change in the work tree
  // A timestamp that differs from the index: git diff would refresh (rewrite) .git/index.
  utimesSync(`${repo.dir}/src/b.ts`, new Date(), new Date(Date.now() + 5000));
  // A clean filter is a program: git diff and status would run it on the changed a.txt.
  writeFileSync(join(repo.dir, ".git", "info", "attributes"), "*.txt filter=spy\n");
  repo.git("config", "filter.spy.clean", `touch ${filterRan}; cat`);
  before = repoHash(repo.dir);
});
afterAll(() => {
  // The whole suite, refusals and answers alike, left the repository as it was.
  expect(repoHash(repo.dir)).toBe(before);
  expect(existsSync(filterRan)).toBe(false);
  rmSync(dirname(filterRan), { recursive: true, force: true });
  repo.cleanup();
});

const refused = async (args: string[], reason: RegExp) => {
  const err = await ask("git", repo.dir, { args }).then(() => undefined, (e) => e);
  expect({ args, code: err?.code }).toEqual({ args, code: "NOT_ALLOWED" });
  expect(err.message).toMatch(reason);
};

describe("what lore git runs", () => {
  test("git log answers as git does", async () => {
    const r = await ask("git", repo.dir, { args: ["log", "--format=%H %s", "-n", "2"] });
    expect(r.stdout).toBe(runGit(repo.dir, ["log", "--format=%H %s", "-n", "2"]));
    expect(r).toMatchObject({ repo: repo.dir, exitCode: 0, stderr: "", truncated: false });
    expect(r.args).toEqual(["log", "--no-ext-diff", "--no-textconv", "--format=%H %s", "-n2"]);
  });

  test("git diff of the work tree, and -5, bundles of flags and a grep", async () => {
    expect((await ask("git", repo.dir, { args: ["diff", "--stat"] })).stdout).toContain("a.txt | 1 +");
    expect((await ask("git", repo.dir, { args: ["log", "-1", "--oneline"] })).stdout.trim().split("\n").length).toBe(1);
    const g = await ask("git", repo.dir, { args: ["grep", "-nw", "export", "--", "src"] });
    expect(g.stdout).toBe("src/b.ts:1:export const b = 1;\n");
    expect((await ask("git", repo.dir, { args: ["status", "--porcelain"] })).stdout).toContain(" M a.txt");
    expect((await ask("git", repo.dir, { args: ["cat-file", "-p", "HEAD:a.txt"] })).stdout).toBe(lines(1, 2, 3, 4));
    expect((await ask("git", repo.dir, { args: ["tag"] })).stdout).toBe("v1\n");
  });

  test("git branch NAME and git tag NAME would create a ref: NOT_ALLOWED, saying what lists instead; nothing is rewritten", async () => {
    const before = repo.git("for-each-ref", "--format=%(refname)");
    for (const [args, list] of [
      [["branch", "newbranch"], "lore git branch --list newbranch"],
      [["branch", "-v", "newbranch"], "lore git branch --list newbranch"],
      [["tag", "v2"], "lore git tag --list v2"],
      [["tag", "--sort=refname", "v2"], "lore git tag --list v2"],
    ] as const) {
      const err = await ask("git", repo.dir, { args: [...args] }).catch((e) => e);
      expect({ args, code: err.code, readOnly: /read-only/.test(err.message), list: err.message.includes(list) }).toEqual({ args, code: "NOT_ALLOWED", readOnly: true, list: true });
    }
    expect(repo.git("for-each-ref", "--format=%(refname)")).toBe(before);
    // What lists is run as typed, and answers what git answers.
    for (const args of [["branch"], ["branch", "--list", "ma*"], ["branch", "--contains", "HEAD"], ["tag", "-l", "v*"], ["tag", "-n", "v1"], ["tag"]]) {
      const r = await ask("git", repo.dir, { args });
      expect({ args, argv: r.args, out: r.stdout }).toEqual({ args, argv: args, out: repo.git(...args) });
    }
  });

  test("revisions stay where they were typed: git log A --not B is not git log --not A B", async () => {
    const r = await ask("git", repo.dir, { args: ["log", "--format=%s", "HEAD", "--not", "HEAD~1"] });
    expect(r.stdout).toBe(repo.git("log", "--format=%s", "HEAD", "--not", "HEAD~1"));
    expect(r.stdout).not.toBe("");
    expect(r.args).toEqual(["log", "--no-ext-diff", "--no-textconv", "--format=%s", "HEAD", "--not", "HEAD~1"]);
    expect(checkGitArgs(["log", "-3", "--oneline"]).argv).toEqual(["log", "--no-ext-diff", "--no-textconv", "-3", "--oneline"]);
  });

  test("a failing git command is an answer with its exit code, not an error", async () => {
    const r = await ask("git", repo.dir, { args: ["grep", "no-such-text-anywhere"] });
    expect(r.exitCode).toBe(1);
    const bad = await ask("git", repo.dir, { args: ["show", "nosuchrev"] });
    expect(bad.exitCode).toBe(128);
    expect(bad.stderr).toMatch(/unknown revision|bad revision/);
  });

  test("output past 64 KB is cut on a line end and says so", async () => {
    const r = await ask("git", repo.dir, { args: ["cat-file", "-p", "HEAD:big.txt"] });
    expect(r.truncated).toBe(true);
    expect(Buffer.byteLength(r.stdout)).toBeLessThanOrEqual(64 * 1024);
    expect(r.stdout.endsWith("x\n")).toBe(true);
    expect(runGit(repo.dir, ["cat-file", "-p", "HEAD:big.txt"]).startsWith(r.stdout)).toBe(true);
  });

  test("the CLI passes every word after git to git, and exits as git did", () => {
    const r = cli(repo.dir, ["git", "log", "-n", "1", "--format=%s"]);
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: "second\n" });
    const j = cli(repo.dir, ["--json", "git", "diff", "--quiet"]);
    expect(j.json.exitCode).toBe(1);
    expect(cli(repo.dir, ["git", "diff", "--quiet"]).code).toBe(1);
    const no = cli(repo.dir, ["git", "log", "--output=/tmp/x"]);
    expect(no.code).toBe(1);
    expect(no.stderr).toContain("[NOT_ALLOWED]");
  });
});

describe("what lore git refuses, as an attacker would try it", () => {
  test("every denied option, in every spelling", async () => {
    const cases: [string[], RegExp][] = [
      [["log", "--output=/tmp/pwn"], /writes a file/],
      [["log", "--output", "/tmp/pwn"], /writes a file/],
      [["diff", "--outp=/tmp/pwn"], /abbreviation of --output/],
      [["diff", "--ext-diff"], /external diff/],
      [["diff", "--ext"], /abbreviation/],
      [["log", "-p", "--textconv"], /textconv/],
      [["diff", "--no-index", "/etc/passwd", "a.txt"], /outside the repository/],
      [["diff", "--no-ind", "a.txt", "src/b.ts"], /abbreviation of .*--no-index/],
      [["grep", "-O", "foo"], /runs a program/],
      [["grep", "-Ocat", "foo"], /runs a program/],
      [["grep", "-nOCMD", "foo"], /-O \(inside -nOCMD\) runs a program/],
      [["grep", "--open-files-in-pager=sh", "foo"], /runs a program/],
      [["grep", "--open-files-in=sh", "foo"], /abbreviation of --open-files-in-pager/],
      [["grep", "--open", "foo"], /abbreviation/],
      [["grep", "-f", "/etc/passwd"], /reads patterns from a file/],
      [["grep", "-if/etc/passwd"], /reads patterns/],
      [["grep", "--no-index", "root", "/etc/passwd"], /outside the repository/],
      [["blame", "--contents", "/etc/passwd", "a.txt"], /reads a file from anywhere/],
      [["blame", "--conte", "/etc/passwd", "a.txt"], /abbreviation of --contents/],
      [["blame", "-S", "/etc/passwd", "a.txt"], /revisions file/],
      [["blame", "--ignore-revs-file=/etc/passwd", "a.txt"], /reads a file/],
      [["log", "-c", "core.pager=touch /tmp/pwn"], /configuration/],
      [["log", "-ccore.pager=sh"], /configuration/],
      [["log", "--config-env=core.pager=PATH"], /configuration/],
      [["-c", "diff.external=sh", "diff"], /global git option/],
      [["-C", "/", "log"], /global git option/],
      [["--git-dir=/tmp", "log"], /global git option/],
      [["log", "--git-dir=/tmp"], /another repository/],
      [["log", "--work-tree=/tmp"], /another work tree/],
      [["status", "-C", "/"], /refused/],
      [["log", "-O/etc/passwd"], /order file/],
      [["log", "--exec=sh"], /runs a program/],
      [["log", "--upload-pack=sh"], /runs a program/],
      [["log", "--show-signature"], /gpg/],
      [["log", "--format=%G?"], /gpg/],
      [["log", "--pretty=format:%GS"], /gpg/],
      [["describe", "--dirty"], /rewrites/],
      [["describe", "--dirty=x"], /rewrites/],
      [["rev-list", "--stdin"], /standard input/],
      [["log", "--end-of-options", "--exec=sh"], /not needed/],
      [["commit", "-m", "x"], /not one of the read-only commands/],
      [["push"], /not one of the read-only commands/],
      [["config", "core.pager", "sh"], /not one of the read-only commands/],
      [["branch", "-D", "main"], /not an option/],
      [["branch", "-m", "x"], /not an option/],
      [["tag", "-d", "v1"], /not an option/],
      [["tag", "-v", "v1"], /not an option/],
      [["cat-file", "--batch"], /not an option/],
      [["cat-file", "--textconv", "HEAD:a.txt"], /textconv/],
      [["log", "-pXsh"], /-X \(inside -pXsh\) is not an option/],
      [["log", "-n", "1", "HEAD", "--output=/tmp/pwn"], /writes a file/], // after a revision
      [["log", "--", "/etc/passwd"], /outside the repository/],
      [["log", "../"], /outside the repository/],
      [["show", "-"], /standard input/],
    ];
    for (const [args, reason] of cases) await refused(args, reason);
  });

  test("a revision named like an option is read as an option, and refused", async () => {
    await refused(["log", "--exec=touch /tmp/pwn"], /runs a program/);
    await refused(["rev-parse", "--output=x"], /writes a file/);
    // After --, it is a path (git's rule too), and a path never runs anything.
    const r = await ask("git", repo.dir, { args: ["log", "--oneline", "--", "--exec=touch x"] });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("");
  });

  test("NUL bytes, long arguments and too many arguments", async () => {
    // Refused by the allow-list, as every other argument it will not pass to git.
    const nul = await ask("git", repo.dir, { args: ["log", "a\0b"] }).catch((e) => e);
    expect([nul.code, nul.message]).toEqual(["NOT_ALLOWED", expect.stringMatching(/NUL/)]);
    expect(() => checkGitArgs(["log", "a\0b"])).toThrow(/NUL/);
    await refused(["log", "--grep=" + "x".repeat(5000)], /longer than/);
    await refused(["log", ...Array(70).fill("--oneline")], /at most/);
  });

  test("the allow-list spells every option one way for git", () => {
    expect(() => checkGitArgs(["log", "-S", ""])).toThrow(/not empty/);
    expect(checkGitArgs(["log", "-S", "--exec=x", "--stat"]).argv).toEqual(["log", "--no-ext-diff", "--no-textconv", "-S--exec=x", "--stat"]);
    expect(checkGitArgs(["log", "--grep", "-p"]).argv).toEqual(["log", "--no-ext-diff", "--no-textconv", "--grep=-p"]);
    expect(checkGitArgs(["grep", "-ni", "-e", "x"]).argv).toEqual(["grep", "--no-textconv", "-n", "-i", "-ex"]);
    expect(checkGitArgs(["shortlog", "-sn", "--", "src"]).argv).toEqual(["shortlog", "-s", "-n", "HEAD", "--", "src"]);
    // Refs named by an option are the revisions: no HEAD beside them.
    expect(checkGitArgs(["shortlog", "-s", "--branches"]).argv).toEqual(["shortlog", "-s", "--branches"]);
    expect(checkGitArgs(["grep", "/etc", "--", "src"]).paths).toEqual(["src"]);
  });
});

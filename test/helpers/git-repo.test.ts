/**
 * TestRepo as tests rely on it: a new repository configured as `git config` would configure it, and
 * commits() making, in one git fast-import, exactly the commits commit() makes one by one.
 */
import { afterAll, expect, test } from "bun:test";
import { BOB, CAROL, lines, runGit, tempDir, TestRepo } from "./git-repo.ts";
import { cleanMessage } from "./commit-stream.ts";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const repos: TestRepo[] = [];
afterAll(() => repos.forEach((r) => r.cleanup()));

test("a new repository's own config is what git init and three git config calls leave", () => {
  const r = new TestRepo();
  repos.push(r);
  const dir = tempDir();
  runGit(dir, ["init", "-q", "-b", "main"]);
  for (const [k, v] of [["user.name", "Test Committer"], ["user.email", "committer@example.com"], ["commit.gpgsign", "false"]]) runGit(dir, ["config", k!, v!]);
  expect(r.git("config", "--local", "--list")).toBe(runGit(dir, ["config", "--local", "--list"]));
  expect(readFileSync(join(r.dir, ".git", "config"), "utf8")).toBe(readFileSync(join(dir, ".git", "config"), "utf8"));
  expect(r.git("var", "GIT_COMMITTER_IDENT")).toStartWith("Test Committer <committer@example.com> ");
  rmSync(dir, { recursive: true, force: true });
});

/** The same history twice: each step as `one` (commit() by commit()) and recorded in a batch. */
function both(): { one: TestRepo; many: TestRepo; oneShas: string[]; manyShas: string[] } {
  const [one, many] = [new TestRepo(), new TestRepo()];
  repos.push(one, many);
  // Both start with an ordinary commit, so the batch continues a branch and the clock.
  one.write("start.txt", "start\n").commit("start");
  many.write("start.txt", "start\n").commit("start");
  const oneShas: string[] = [];
  const steps = (w: { write(p: string, c: string | Uint8Array): unknown; remove(p: string): unknown }, commit: (m: string, a?: any) => void) => {
    for (let i = 0; i < 12; i++) {
      w.write(`f${i % 3}.txt`, lines(`v${i}`, "same"));
      if (i === 4) w.write("deep/er/bin.dat", new Uint8Array([0, 1, 2, 255, 0]));
      if (i === 5) w.write("name with spaces é.txt", "unicode\n");
      if (i === 7) {
        w.remove("f2.txt");
        w.write("g2.txt", lines("v5", "same"));
      }
      if (i === 9) w.remove("deep/er/bin.dat");
      commit(i === 3 ? "  subject with spaces  \n\n\n\nbody line   \n\n" : `change ${i}`, [undefined, BOB, CAROL][i % 3]);
    }
  };
  steps(one, (m, a) => oneShas.push(one.commit(m, a)));
  const manyShas = many.commits((b) => steps(b, (m, a) => b.commit(m, a)));
  return { one, many, oneShas, manyShas };
}

test("a batch makes the very commits commit() makes: same shas, so the same trees, messages, people and dates", () => {
  const { one, many, oneShas, manyShas } = both();
  expect(manyShas).toEqual(oneShas);
  expect(many.git("log", "--format=%H %an %ae %ad %cn %ce %cd", "--date=raw")).toEqual(one.git("log", "--format=%H %an %ae %ad %cn %ce %cd", "--date=raw"));
  expect(many.head()).toBe(oneShas.at(-1)!);
});

test("after a batch the work tree and index are HEAD's, and commit() goes on a minute later as if it had made them", () => {
  const { one, many } = both();
  expect(many.git("status", "--porcelain", "--untracked-files=all")).toBe("");
  expect(many.git("ls-files", "-s")).toEqual(one.git("ls-files", "-s"));
  one.write("after.txt", "after\n");
  many.write("after.txt", "after\n");
  expect(many.commit("after")).toBe(one.commit("after"));
});

test("a batch on a repository without commits starts the branch", () => {
  const r = new TestRepo();
  repos.push(r);
  const shas = r.commits((b) => b.write("a.txt", "a\n").commit("first").write("a.txt", "b\n").commit("second"));
  expect(r.git("rev-list", "HEAD").trim().split("\n")).toEqual([...shas].reverse());
  expect(r.git("show", "HEAD:a.txt")).toBe("b\n");
});

test("messages are cleaned as git commit -m cleans them, and an empty one is refused", () => {
  expect(cleanMessage("subject  \n\n\nbody\t\n\n")).toBe("subject\n\nbody\n");
  expect(() => cleanMessage(" \n\n")).toThrow("not empty");
  const r = new TestRepo();
  repos.push(r);
  expect(() => r.commits((b) => b.write("a.txt", "a\n"))).toThrow("after the batch's last commit");
});

/** Checks that the benchmark repository generator is deterministic and builds the history shapes lore's questions need. */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitText } from "../../src/git/run.ts";
import { generateRepo } from "./gen-repo.ts";

const root = mkdtempSync(join(tmpdir(), "lore-gen-repo-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const size = { commits: 200, files: 50 };
const first = generateRepo({ dir: join(root, "a"), ...size, seed: 7 });
const git = async (args: string[]) => gitText(args, { cwd: (await first).dir });
const lines = (text: string) => text.split("\n").filter((l) => l !== "");

test("the same seed and sizes give the same HEAD sha", async () => {
  const again = await generateRepo({ dir: join(root, "b"), ...size, seed: 7 });
  expect(again.head).toBe((await first).head);
});

test("another seed gives another history", async () => {
  const other = await generateRepo({ dir: join(root, "c"), ...size, seed: 8 });
  expect(other.head).not.toBe((await first).head);
});

test("the commit count counts every commit reachable from HEAD, merges and side-branch commits included", async () => {
  expect(await git(["rev-list", "--count", "HEAD"])).toBe("200");
});

test("the repository passes fsck and is checked out clean on main with exactly the files asked for", async () => {
  expect(await git(["fsck", "--strict", "--no-progress"])).toBe("");
  expect(await git(["symbolic-ref", "HEAD"])).toBe("refs/heads/main");
  expect(await git(["for-each-ref", "--format=%(refname)"])).toBe("refs/heads/main");
  expect(await git(["status", "--porcelain"])).toBe("");
  expect(lines(await git(["ls-files"]))).toHaveLength(50);
});

test("history holds renames, merges, deletions, binary files and nested folders", async () => {
  expect(lines(await git(["log", "-M", "--diff-filter=R", "--format=%H"])).length).toBeGreaterThan(0);
  expect(lines(await git(["rev-list", "--merges", "HEAD"])).length).toBeGreaterThanOrEqual(200 / 25 - 1);
  expect(lines(await git(["log", "--diff-filter=D", "--format=%H"])).length).toBeGreaterThan(0);
  expect(await git(["log", "--numstat", "--format="])).toMatch(/^-\t-\t/m);
  expect(lines(await git(["ls-files"])).some((p) => p.split("/").length >= 4)).toBe(true);
});

test("identities and dates come from the generator, not from the machine's git config or clock", async () => {
  const emails = new Set(lines(await git(["log", "--format=%ae %ce"])).flatMap((l) => l.split(" ")));
  for (const e of emails) expect(e).toEndWith("@bench.lore.example");
  expect(emails.size).toBeGreaterThanOrEqual(5);
  const newest = Number(await git(["log", "-1", "--format=%ct"]));
  expect(newest).toBeLessThan(Date.UTC(2020, 0, 1) / 1000);
});

test("the result names clusters of files at HEAD for co-change ground truth", async () => {
  const { clusters } = await first;
  const files = new Set(lines(await git(["ls-files"])));
  expect(clusters.length).toBeGreaterThan(0);
  for (const c of clusters) for (const p of c) expect(files.has(p)).toBe(true);
});

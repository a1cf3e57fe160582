import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { TestRepo, lines } from "../helpers/git-repo.ts";
import { gitBlame, hunksToLines } from "../helpers/git-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";

const made: TestRepo[] = [];
beforeAll(() => isolateHome());
afterAll(() => made.forEach((r) => r.cleanup()));

/** One commit of `files` small files, written with git fast-import (the file system would take minutes). */
function manyFiles(files: number): TestRepo {
  const r = new TestRepo();
  made.push(r);
  const parts: string[] = [];
  for (let i = 0; i < files; i++) {
    const body = `file ${i}\n`;
    parts.push(`blob\nmark :${i + 1}\ndata ${Buffer.byteLength(body)}\n${body}\n`);
  }
  const msg = "fifty thousand files\n";
  parts.push(`commit refs/heads/main\nmark :${files + 1}\nauthor A <a@example.com> 1700000000 +0000\ncommitter A <a@example.com> 1700000000 +0000\ndata ${msg.length}\n${msg}`);
  for (let i = 0; i < files; i++) parts.push(`M 100644 :${i + 1} d${i % 100}/f${i}.txt\n`);
  parts.push("\n");
  const res = spawnSync("git", ["fast-import", "--quiet"], { cwd: r.dir, input: parts.join("") });
  expect(res.status).toBe(0);
  r.git("reset", "-q", "--hard");
  return r;
}

test("a repository with 50,000 files is indexed and answered", async () => {
  const r = manyFiles(50_000);
  r.write("d7/f7.txt", "changed\n");
  r.write("d8/f8.txt", "changed too\n");
  r.commit("Two files");
  const hs = await ask("hotspots", r.dir, { limit: 2 });
  const s = await ask("status", r.dir);
  expect(s.filesTotal).toBe(50_000);
  expect(s.commitsIndexed).toBe(2);
  expect(hs.results.map((x: any) => [x.path, x.commits])).toEqual([["d7/f7.txt", 2], ["d8/f8.txt", 2]]);
  const c = await ask("cochange", r.dir, { paths: ["d7/f7.txt"] });
  expect(c.results).toEqual([{ path: "d8/f8.txt", score: 1, count: 1, confidence: 1, jaccard: 1 }]);
  const b = await ask("blame", r.dir, { path: "d8/f8.txt" });
  expect(b.hunks[0][2]).toBe(r.head().slice(0, 12));
  const cs = await ask("contributors", r.dir, { path: "d9" });
  expect(cs.totalLines).toBe(500);
}, 240_000);

test("a 20 MB text file is blamed line for line as git does", async () => {
  const r = new TestRepo();
  made.push(r);
  const big = Array.from({ length: 400_000 }, (_, i) => `line ${i} ${"x".repeat(40)}`);
  r.write("big.txt", lines(...big));
  r.commit("Twenty megabytes");
  big[123_456] = "changed";
  big[399_999] = "last changed";
  r.write("big.txt", lines(...big));
  r.commit("Two lines");
  const b = await ask("blame", r.dir, { path: "big.txt", startLine: 123_450, endLine: 123_460 });
  expect(b.lines).toBe(400_000);
  expect(hunksToLines(b.hunks).map((l) => l.sha)).toEqual(gitBlame(r.dir, "HEAD", "big.txt", ["-L", "123450,123460"]).map((o) => o.sha));
  const whole = await ask("blame", r.dir, { path: "big.txt" });
  expect(whole.hunks.length).toBe(4);
  const h = await ask("history", r.dir, { path: "big.txt" });
  expect(h.commits.map((x: any) => [x.additions, x.deletions])).toEqual([[2, 2], [400_000, 0]]);
}, 120_000);

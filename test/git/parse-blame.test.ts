import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { IncrementalBlameParser, parseBlamePorcelain } from "../../src/git/parse-blame.ts";
import { trickyHistory } from "../helpers/tricky-history.ts";
import { parseLsTree } from "../../src/git/parse-tree.ts";

const A = "a".repeat(40);
const B = "b".repeat(40);
const details = (sha: string, who: string, summary: string, file: string, extra = "") =>
  `author ${who}\nauthor-mail <${who.toLowerCase()}@example.com>\nauthor-time 1700000000\nauthor-tz +0000\ncommitter X\ncommitter-mail <x@x>\ncommitter-time 1700000000\ncommitter-tz +0000\nsummary ${summary}\n${extra}filename ${file}\n`;

// Recorded from git 2.39 `git blame --porcelain`, with a quoted name and a boundary commit.
const RECORDED =
  `${A} 1 1 2\n` + details(A, "Ann", "First", '"old\\tname.txt"', "boundary\n") + "\tline one\n" +
  `${A} 2 2\n\tline two\n` +
  `${B} 3 3 1\n` + details(B, "Bob", "Second", "new name.txt", `previous ${A} "old\\tname.txt"\n`) + "\tline three\n" +
  `${A} 3 4 1\nfilename "old\\tname.txt"\n\tline four\n`;

test("blame porcelain becomes hunks of consecutive lines and commits listed once", () => {
  const r = parseBlamePorcelain(new TextEncoder().encode(RECORDED));
  expect(r.lines).toBe(4);
  expect(r.binary).toBe(false);
  expect(r.hunks).toEqual([
    { start: 1, end: 2, sha: A, origPath: "old\tname.txt", origStart: 1 },
    { start: 3, end: 3, sha: B, origPath: "new name.txt", origStart: 3 },
    { start: 4, end: 4, sha: A, origPath: "old\tname.txt", origStart: 3 },
  ]);
  expect(r.commits[A]).toEqual({ author: "Ann", email: "ann@example.com", time: 1700000000, subject: "First", boundary: true });
  expect(r.commits[B]).toEqual({ author: "Bob", email: "bob@example.com", time: 1700000000, subject: "Second" });
});

test("a NUL byte in the first 8,000 bytes marks the file binary, as git decides", () => {
  const r = parseBlamePorcelain(new TextEncoder().encode(`${A} 1 1 1\n` + details(A, "Ann", "bin", "x.bin") + "\tab\0cd\n"));
  expect(r.binary).toBe(true);
});

test("ls-tree -r -z -l reads blobs, sizes, submodules and odd names", () => {
  const out = `100644 blob ${A}     120\tsrc/a b.txt\x00160000 commit ${B}       -\tvendor/sub\x00100644 blob ${B}       7\tnew\nline\0`;
  expect(parseLsTree(new TextEncoder().encode(out))).toEqual([
    { mode: "100644", type: "blob", blob: A, size: 120, path: "src/a b.txt" },
    { mode: "160000", type: "commit", blob: B, size: null, path: "vendor/sub" },
    { mode: "100644", type: "blob", blob: B, size: 7, path: "new\nline" },
  ]);
});

test("blame --incremental, fed in any chunks, gives what the porcelain gives, file by file of a tricky history", () => {
  const h = trickyHistory(5, 16);
  const files = spawnSync("git", ["ls-files", "-z"], { cwd: h.repo.dir }).stdout.toString().split("\0").filter(Boolean);
  expect(files.length).toBeGreaterThan(3);
  let groups = 0;
  for (const [i, path] of files.entries()) {
    const run = (how: string) => spawnSync("git", ["blame", how, "HEAD", "--", path], { cwd: h.repo.dir, maxBuffer: 1 << 28 }).stdout;
    const want = parseBlamePorcelain(run("--porcelain"));
    const out = run("--incremental");
    const parser = new IncrementalBlameParser();
    // Chunks of 1 to 97 bytes: a line, a key or a name may be cut anywhere.
    const size = 1 + ((i * 31) % 97);
    for (let at = 0; at < out.length; at += size) groups += parser.push(out.subarray(at, at + size)).length;
    expect({ path, got: parser.finish(want.lines, want.binary) }).toEqual({ path, got: want });
    // A wrong line count is never taken for a whole blame.
    if (want.lines > 0) expect(parser.finish(want.lines + 1, false)).toBeNull();
  }
  expect(groups).toBeGreaterThan(files.length);
});

import { describe, expect, test } from "bun:test";
import { NumstatParser, RawLogParser, parseNumstatLog, parseRawLog } from "../../src/git/parse-log.ts";

const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);
const Z = "0".repeat(40);
const enc = new TextEncoder();

/** One commit as `git log --raw -z --format=LOG_FORMAT` prints it. */
function header(sha: string, parents: string, subject: string, body = subject + "\n") {
  return `\x1e${sha}\0${parents}\0Ann Author\0ann@example.com\x001700000000\x001700000060\0${subject}\0${body}\0`;
}

// Recorded from git 2.39 (`git log --raw -z -M --root --format=...`), names rewritten to cover the odd cases.
const RECORDED =
  header(A, B, "Rename and add odd names", "Rename and add odd names\n\nBody line\n") +
  "\0\n" +
  `:100644 100644 ${C} ${C} R100\0old name.txt\0new name.txt\0` +
  `:000000 100644 ${Z} ${C} A\0tab\there.txt\0` +
  `:000000 100644 ${Z} ${C} A\0new\nline.txt\0` +
  `:000000 100644 ${Z} ${C} A\0quote".txt\0` +
  `:000000 100644 ${Z} ${C} A\0ünïcödé.txt\0` +
  `:100644 000000 ${C} ${Z} D\0gone.bin\0` +
  header(B, `${C} ${A}`, "Merge branch 'x'") +
  "\0" +
  header(C, "", "Root commit") +
  "\0\n" +
  `:000000 100644 ${Z} ${C} A\0first.txt\0`;

describe("git log --raw -z parser", () => {
  test("reads commits, renames and names with spaces, tabs, newlines, quotes and non-ASCII", () => {
    const commits = parseRawLog(enc.encode(RECORDED));
    expect(commits.map((c) => c.sha)).toEqual([A, B, C]);
    const [first, merge, root] = commits;
    expect(first!.parents).toEqual([B]);
    expect(first!.message).toBe("Rename and add odd names\n\nBody line");
    expect(first!.subject).toBe("Rename and add odd names");
    expect(first!.time).toBe(1700000000);
    expect(first!.commitTime).toBe(1700000060);
    expect(first!.changes.map((c) => [c.status, c.path, c.oldPath])).toEqual([
      ["R", "new name.txt", "old name.txt"],
      ["A", "tab\there.txt", undefined],
      ["A", "new\nline.txt", undefined],
      ["A", 'quote".txt', undefined],
      ["A", "ünïcödé.txt", undefined],
      ["D", "gone.bin", undefined],
    ]);
    expect(first!.changes[0]!.score).toBe(100);
    expect(merge!.parents).toEqual([C, A]);
    expect(merge!.changes).toEqual([]);
    expect(root!.parents).toEqual([]);
    expect(root!.changes.map((c) => c.path)).toEqual(["first.txt"]);
  });

  test("gives the same commits whatever the chunk boundaries", () => {
    const bytes = enc.encode(RECORDED);
    const whole = parseRawLog(bytes);
    for (const size of [1, 2, 7, 64]) {
      const p = new RawLogParser();
      const got = [];
      for (let i = 0; i < bytes.length; i += size) got.push(...p.push(bytes.subarray(i, i + size)));
      got.push(...p.end());
      expect(got).toEqual(whole);
    }
  });

  test("keeps bytes that are not UTF-8 in a name recoverable", () => {
    const bytes = new Uint8Array([...enc.encode(header(A, "", "x") + "\0\n" + `:000000 100644 ${Z} ${C} A\0`), 0x66, 0xff, 0x2e, 0x74, 0]);
    const [c] = parseRawLog(bytes);
    expect(c!.changes[0]!.path).toBe("f\u{10fcff}.t");
  });

  test("an output cut in the middle of a record is an error, not a short answer", () => {
    const bytes = enc.encode(RECORDED).subarray(0, 120);
    const p = new RawLogParser();
    p.push(bytes);
    expect(() => p.end()).toThrow();
  });
});

describe("git log --numstat -z parser", () => {
  test("reads counts, binary files and renames", () => {
    const out = `\x1e${A}\0\n3\t1\tplain.txt\0-\t-\tlogo.png\0` + `5\t0\t\0old.txt\0new.txt\0` + `\x1e${B}\0` + `\x1e${C}\0\n1\t0\ttab\there.txt\0`;
    const recs = parseNumstatLog(enc.encode(out));
    expect(recs.map((r) => r.sha)).toEqual([A, B, C]);
    expect(recs[0]!.entries).toEqual([
      { path: "plain.txt", additions: 3, deletions: 1 },
      { path: "logo.png", additions: null, deletions: null },
      { path: "new.txt", oldPath: "old.txt", additions: 5, deletions: 0 },
    ]);
    expect(recs[1]!.entries).toEqual([]);
    expect(recs[2]!.entries[0]!.path).toBe("tab\there.txt");
    const p = new NumstatParser();
    const bytes = enc.encode(out);
    const got = [];
    for (let i = 0; i < bytes.length; i += 3) got.push(...p.push(bytes.subarray(i, i + 3)));
    got.push(...p.end());
    expect(got).toEqual(recs);
  });
});

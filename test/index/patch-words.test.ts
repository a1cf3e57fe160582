/** The change index's reading of git's bytes: words cut as the regex would, and a patch read the same however git's output is cut. */
import { describe, expect, test } from "bun:test";
import { PatchWordsParser, type PatchSink } from "../../src/index/patch-words.ts";
import { WordTable } from "../../src/index/word-table.ts";

function words(table: WordTable, text: string): string[] {
  const bytes = Buffer.from(text, "utf8");
  const out: string[] = [];
  table.forEachWord(bytes, 0, bytes.length, (w) => out.push(table.text(w)));
  return out;
}

describe("the word table", () => {
  test("cuts words as /[A-Za-z0-9_]{3,}/g does, at the ends too, other bytes (UTF-8 included) between", () => {
    const table = new WordTable();
    for (const text of ["abc", "ab cd_e f99 ___ x", "été façade_1 naïve", "a.b.cde.fghij;;k12", "0123456789", "", "zz"])
      expect(words(table, text)).toEqual(Buffer.from(text, "utf8").toString("latin1").match(/[A-Za-z0-9_]{3,}/g) ?? []);
  });

  test("gives each distinct word one number, through many growths of its table", () => {
    const table = new WordTable();
    const n = 50_000;
    const first = words(table, Array.from({ length: n }, (_, i) => `w${i}_x`).join(" "));
    expect(table.size).toBe(n);
    expect(words(table, Array.from({ length: n }, (_, i) => `w${n - 1 - i}_x`).join(" "))).toEqual([...first].reverse());
    expect(table.size).toBe(n);
  });
});

describe("the patch parser", () => {
  const patch =
    [
      "\x1e" + "a".repeat(40),
      "diff --git a/x.js b/x.js",
      "index 1111111..2222222 100644",
      "--- a/x.js",
      "+++ b/x.js",
      "@@ -1 +1,2 @@",
      "-const oldName = 1;",
      "+const newName = oldName + oldName;",
      "+// newName again",
      "diff --git a/bin.dat b/bin.dat",
      "index 3333333..4444444 100644",
      "Binary files a/bin.dat and b/bin.dat differ",
      "\x1e" + "b".repeat(40),
      "\x1e" + "c".repeat(40),
      "diff --git a/y.txt b/y.txt",
      "@@ -0,0 +1 @@",
      "+café newName",
    ].join("\n") + "\n";

  function read(cut: number): string[] {
    const table = new WordTable();
    const seen: string[] = [];
    const sink: PatchSink = {
      commit: (sha) => seen.push(`commit ${sha[0]}`),
      file: (f) => {
        const counts: string[] = [];
        f.counts.forEach((w, plus, minus) => counts.push(`${table.text(w)}+${plus}-${minus}`));
        seen.push(`file ${f.ord} ${f.header} ${f.binary} ${f.blobs?.join("..") ?? ""} ${counts.join(" ")}`.trim());
      },
      endCommit: () => seen.push("end"),
    };
    const parser = new PatchWordsParser(table, sink);
    const bytes = Buffer.from(patch, "utf8");
    for (let i = 0; i < bytes.length; i += cut) parser.push(bytes.subarray(i, i + cut));
    parser.end();
    return seen;
  }

  test("counts each file's words on added and removed lines, and says which file is binary", () => {
    expect(read(patch.length * 2)).toEqual([
      "commit a",
      "file 0 diff --git a/x.js b/x.js false 1111111..2222222 const+1-1 oldName+2-1 newName+2-0 again+1-0",
      "file 1 diff --git a/bin.dat b/bin.dat true 3333333..4444444",
      "end",
      "commit b",
      "end",
      "commit c",
      "file 0 diff --git a/y.txt b/y.txt false  caf+1-0 newName+1-0",
      "end",
    ]);
  });

  test("reads the same wherever git's output is cut", () => {
    const whole = read(patch.length * 2);
    for (const cut of [1, 2, 3, 7, 16, 64]) expect(read(cut)).toEqual(whole);
  });
});

/** The report's data equals what the questions answer: files and lines, changes, co-change, history, ownership. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { askHere } from "../../src/report/ask-here.ts";
import { askShape, folderOwnership, reportData, weekOf } from "../../src/report/data.ts";
import { findQuery } from "../../src/queries/index.ts";
import type { ReportData } from "../../src/report/page/types.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import type { TestRepo } from "../helpers/git-repo.ts";
import { FILE_LINES, reportRepo } from "./fixture.ts";

let repo: TestRepo;
let home: string;
let data: ReportData;

beforeAll(async () => {
  home = isolateHome();
  repo = reportRepo();
  data = await reportData(await askHere(repo.dir), askShape({ cochange: findQuery("cochange")!.args }));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("report data", () => {
  test("has one file per text file at HEAD, with its lines, largest first", () => {
    expect(Object.fromEntries(data.files.map((f) => [f.path, f.lines]))).toEqual(FILE_LINES);
    expect(data.files[0]!.path).toBe("big/data.txt");
    expect(data.filesLeftOut).toBe(0);
  });

  test("counts each file's changes in the window as hotspots does", async () => {
    const hot = await ask("hotspots", repo.dir, { limit: 1000 });
    for (const f of data.files) expect(f.changes).toBe(hot.results.find((r: any) => r.path === f.path)?.commits ?? 0);
    expect(data.files.find((f) => f.path === "src/app.ts")!.changes).toBe(4);
  });

  test("lists each file's co-change partners as lore cochange does", async () => {
    for (const f of data.files) {
      const co = await ask("cochange", repo.dir, { paths: [f.path] });
      expect(data.details[f.path]!.cochange).toEqual(co.results.map((r: any) => ({ path: r.path, count: r.count, confidence: r.confidence })));
    }
    expect(data.details["src/app.ts"]!.cochange[0]).toEqual({ path: "src/util.ts", count: 3, confidence: 0.75 });
  });

  test("shows each file's newest commits as lore history does", async () => {
    const h = await ask("history", repo.dir, { path: "src/app.ts" });
    expect(data.details["src/app.ts"]!.history.map((c) => c.subject)).toEqual(h.commits.slice(0, 5).map((c: any) => c.subject));
    expect(data.details["src/app.ts"]!.commits).toBe(4);
  });

  test("owns folders as lore contributors says for them", async () => {
    for (const folder of ["src", "big", ""]) {
      const who = await ask("contributors", repo.dir, folder ? { path: folder } : {});
      const row = data.folders.find((f) => f.path === folder)!;
      expect({ author: row.author, share: row.share, lines: row.lines, authors: row.authors }).toEqual({ author: who.results[0].author, share: who.results[0].share, lines: who.totalLines, authors: who.results.length });
    }
    expect(data.folders.find((f) => f.path === "big")!.island).toBe(true);
  });

  test("counts commits per week touching files that exist", () => {
    // Every commit but the two about old.txt touched a file that exists now.
    expect(data.weeks.reduce((a, [, n]) => a + n, 0)).toBe(5);
  });

  test("draws the co-change graph of the hotspots, an edge per pair that changed together", () => {
    expect(data.graph.nodes.map((n) => n.path).sort()).toEqual(Object.keys(FILE_LINES).sort());
    expect(data.graph.links.find((l) => l.source === "src/app.ts" && l.target === "src/util.ts")?.count).toBe(3);
  });
});

test("folder ownership sums lines per author up the tree; one author with ≥ 80 % makes an island", () => {
  const owners = folderOwnership("", new Map([
    ["a/x.ts", [{ author: "Ann", lines: 9 }, { author: "Ben", lines: 1 }]],
    ["a/b/y.ts", [{ author: "Ben", lines: 10 }]],
  ]));
  expect(owners).toEqual([
    { path: "", author: "Ben", share: 0.55, authors: 2, lines: 20, island: false },
    { path: "a", author: "Ben", share: 0.55, authors: 2, lines: 20, island: false },
    { path: "a/b", author: "Ben", share: 1, authors: 1, lines: 10, island: true },
  ]);
});

test("a week starts on Monday, in UTC", () => {
  expect(weekOf("2025-02-06T13:35:20Z")).toBe("2025-02-03");
  expect(weekOf("2025-02-03T00:00:00Z")).toBe("2025-02-03");
  expect(weekOf("2025-02-09T23:59:59Z")).toBe("2025-02-03");
});

import { afterAll, beforeAll, expect, test } from "bun:test";
import { ALICE, BOB, CAROL, TestRepo, lines, type Author } from "../helpers/git-repo.ts";
import { gitBlame, gitFiles } from "../helpers/git-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { doa } from "../../src/queries/run/truck-factor.ts";

const DAN: Author = { name: "Dan Example", email: "dan@example.com" };
let repo: TestRepo;

/**
 * By construction: Alice alone wrote 4 files, Bob 3, Carol 1, and Dan only touched one line of
 * one of Alice's. Taking Alice away orphans 4 of 8 files (not more than half); Bob too, 7 of 8:
 * the truck factor is 2, Alice then Bob.
 */
beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  const own = (who: Author, files: string[]) => {
    for (const f of files) repo.write(f, lines(`${f} by ${who.name}`, "two", "three", "four"));
    repo.commit(`${who.name} writes`, who);
    for (const f of files) repo.write(f, lines(`${f} by ${who.name}`, "two", "three", "four", "five"));
    repo.commit(`${who.name} again`, who);
  };
  own(ALICE, ["core/a1.js", "core/a2.js", "core/a3.js", "core/a4.js"]);
  own(BOB, ["web/b1.js", "web/b2.js", "web/b3.js"]);
  own(CAROL, ["docs/c1.md"]);
  repo.write("core/a1.js", lines("core/a1.js by Alice Example", "two by Dan", "three", "four", "five")).commit("Dan fixes a line", DAN);
  repo.write("assets/logo.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3])).commit("A logo", CAROL);
});
afterAll(() => repo.cleanup());

test("the truck factor of a history built to have one: 2, Alice then Bob", async () => {
  const r = await ask("owners", repo.dir, { path: "core" });
  expect(r.truckFactor).toBe(1);
  const all = await ask("owners", repo.dir, {});
  // 9 files: the logo is Carol's too; Alice orphans 4, Bob 3 more = 7 of 9.
  expect(all.truckFactor).toBe(2);
  expect(all.truckAuthors).toEqual([
    { author: ALICE.name, email: ALICE.email },
    { author: BOB.name, email: BOB.email },
  ]);
});

test("degree-of-authorship follows Avelino et al.: Dan's one change does not make him an author of Alice's file", () => {
  const alice = doa(true, 2, 1);
  const dan = doa(false, 1, 2);
  expect(alice).toBeCloseTo(3.293 + 1.098 + 0.328 - 0.321 * Math.log(2), 10);
  expect(dan / alice).toBeLessThan(0.75);
});

test("main author, share, authors and islands per folder and per file equal git blame", async () => {
  for (const by of ["folder", "file"] as const) {
    const r = await ask("owners", repo.dir, { by, limit: 100 });
    for (const row of r.results) {
      const files = gitFiles(repo.dir).filter((f) => f === row.path || f.startsWith(row.path + "/"));
      expect(row.files).toBe(files.length);
      const perPerson = new Map<string, number>();
      for (const f of files.filter((f) => !f.endsWith(".png"))) for (const o of gitBlame(repo.dir, "HEAD", f)) perPerson.set(`${o.author}\0${o.email}`, (perPerson.get(`${o.author}\0${o.email}`) ?? 0) + 1);
      const total = [...perPerson.values()].reduce((a, b) => a + b, 0);
      const [who, n] = [...perPerson].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0] ?? ["", 0];
      expect({ path: row.path, lines: row.lines, authors: row.authors }).toEqual({ path: row.path, lines: total, authors: perPerson.size });
      if (total === 0) continue;
      expect(row.main).toEqual({ author: who.split("\0")[0], email: who.split("\0")[1], share: Math.round((n / total) * 100) / 100 });
      expect(row.island).toBe(n / total >= 0.8);
    }
  }
  const folders = await ask("owners", repo.dir, { by: "folder" });
  expect(folders.results.map((x: any) => x.path).sort()).toEqual(["assets", "core", "docs", "web"]);
  expect(folders.results.find((x: any) => x.path === "web").island).toBe(true);
  expect(folders.results.find((x: any) => x.path === "core").main.author).toBe(ALICE.name);
});

test("by default the path's own owners: its top 3 authors by lines, as git blame sums them, and no rows", async () => {
  const r = await ask("owners", repo.dir, {});
  const perPerson = new Map<string, number>();
  for (const f of gitFiles(repo.dir).filter((f) => !f.endsWith(".png"))) for (const o of gitBlame(repo.dir, "HEAD", f)) perPerson.set(`${o.author}\0${o.email}`, (perPerson.get(`${o.author}\0${o.email}`) ?? 0) + 1);
  const total = [...perPerson.values()].reduce((a, b) => a + b, 0);
  const top = [...perPerson].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3);
  expect(r.authors).toEqual(top.map(([who, n]) => ({ author: who.split("\0")[0], email: who.split("\0")[1], lines: n, share: Math.round((n / total) * 100) / 100 })));
  expect(r.results).toBeUndefined();
  expect(r.truncated).toBe(perPerson.size > 3);
});

test("a binary-only folder answers with zero lines, not an error; a missing path is PATH_NOT_FOUND", async () => {
  const r = await ask("owners", repo.dir, { path: "assets", by: "folder" });
  expect(r).toMatchObject({ lines: 0, files: 1, authors: [], results: [{ path: "assets/logo.png", lines: 0, files: 1, authors: 0, island: false }] });
  expect(r.results[0].main).toBeUndefined();
  await expect(ask("owners", repo.dir, { path: "nowhere" })).rejects.toMatchObject({ code: "PATH_NOT_FOUND" });
  await expect(ask("owners", repo.dir, { by: "team" })).rejects.toMatchObject({ code: "BAD_ARGUMENT" });
});

test("co-authors named in Co-authored-by trailers (mailmap applied) get coLines and coCommits, never added to the total", async () => {
  const r = new TestRepo();
  try {
    r.write(".mailmap", `${CAROL.name} <${CAROL.email}> <carol-old@example.com>\n`);
    r.write("pair.js", lines("one", "two", "three")).commit(`Pair on it\n\nCo-authored-by: Carol Old <carol-old@example.com>\nCo-authored-by: ${BOB.name} <${BOB.email}>`, BOB);
    r.write("solo.js", lines("alone", "still alone")).commit("Solo", ALICE);
    r.write("pair.js", lines("one", "two", "three", "four")).commit(`More pairing\n\nco-authored-by: ${BOB.name} <${BOB.email}>`, CAROL);
    // The reference, from git: each commit's trailers through git check-mailmap, its surviving lines from git blame.
    const trailers = new Map<string, string[]>();
    for (const rec of r.git("log", "--format=%H%x00%an <%ae>%x00%(trailers:key=Co-authored-by,valueonly,separator=%x01)%x1e").split("\x1e").filter((x) => x.trim())) {
      const [sha, author, t] = rec.trim().split("\0");
      const people = t!.split("\x01").filter(Boolean).map((p) => r.git("check-mailmap", p.trim()).trim()).filter((p) => p !== r.git("check-mailmap", author!).trim());
      trailers.set(sha!.slice(0, 12), people); // gitBlame gives 12-hex ids, as lore's answers do
    }
    const expected = new Map<string, { coLines: number; coCommits: Set<string> }>();
    let total = 0;
    for (const f of gitFiles(r.dir))
      for (const o of gitBlame(r.dir, "HEAD", f)) {
        total++;
        for (const p of trailers.get(o.sha!) ?? []) {
          const e = expected.get(p) ?? { coLines: 0, coCommits: new Set<string>() };
          e.coLines++;
          e.coCommits.add(o.sha!);
          expected.set(p, e);
        }
      }
    const c = await ask("contributors", r.dir, {});
    expect(c.totalLines).toBe(total);
    expect(c.results.reduce((s: number, x: any) => s + x.lines, 0)).toBe(total);
    const got = new Map(c.results.filter((x: any) => x.coLines).map((x: any) => [`${x.author} <${x.email}>`, { coLines: x.coLines, coCommits: x.coCommits }]));
    expect(got).toEqual(new Map([...expected].map(([p, e]) => [p, { coLines: e.coLines, coCommits: e.coCommits.size }])));
    expect(got.get(`${CAROL.name} <${CAROL.email}>`)).toEqual({ coLines: 4, coCommits: 1 }); // pair.js 3 lines and .mailmap 1, one commit
    const o = await ask("owners", r.dir, { by: "file" });
    expect(o.results.find((x: any) => x.path === "pair.js").main).toEqual({ author: BOB.name, email: BOB.email, share: 0.75, coLines: 1 });
  } finally {
    r.cleanup();
  }
});

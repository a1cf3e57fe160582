/**
 * One person, one row: authors who share an email (in any case) are one person in contributors,
 * owners and the truck factor, named by the mailmap or their newest commit, checked against git
 * log, git check-mailmap and git blame; shared emails (root@localhost, noreply@github.com) join
 * no one. On express, TJ Holowaychuk's three names (`git shortlog -sne`) are one person.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestRepo, lines, runGit, type Author } from "../helpers/git-repo.ts";
import { hasExpress } from "../helpers/express.ts";
import { indexedClone } from "../helpers/corpus-index.ts";
import { gitBlame, gitFiles } from "../helpers/git-truth.ts";
import { gitPeople } from "../helpers/identity-truth.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { groupIdentities, sharedEmail } from "../../src/queries/run/identity.ts";

const PAT_OLD: Author = { name: "pat", email: "Pat@Corp.io" };
const PAT: Author = { name: "Pat Doe", email: "pat@corp.io" };
const ROOT1: Author = { name: "Build Bot", email: "root@localhost" };
const ROOT2: Author = { name: "Someone Else", email: "root@localhost" };
const GH1: Author = { name: "Web One", email: "noreply@github.com" };
const GH2: Author = { name: "Web Two", email: "noreply@github.com" };
const SAM_OLD: Author = { name: "sam", email: "sam@corp.io" };
const SAM: Author = { name: "Samantha", email: "SAM@corp.io" };

let repo: TestRepo;

/** Lines per person (git's truth) summed over git blame of every text file under `prefix`. */
function blameByPerson(dir: string, prefix: string, person: (a: string, e: string) => string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const f of gitFiles(dir).filter((f) => prefix === "" || f === prefix || f.startsWith(prefix + "/"))) {
    for (const o of gitBlame(dir, "HEAD", f)) {
      const p = person(o.author, o.email);
      sums.set(p, (sums.get(p) ?? 0) + 1);
    }
  }
  return sums;
}

beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  const n = (who: Author, file: string, k: number) => repo.write(file, lines(...Array.from({ length: k }, (_, i) => `${file} ${who.name} ${i}`))).commit(`${who.name} writes ${file}`, who);
  n(PAT_OLD, "src/a.js", 6);
  n(PAT, "src/b.js", 4);
  n(ROOT1, "src/c.js", 3);
  n(ROOT2, "src/d.js", 2);
  n(GH1, "src/e.js", 2);
  n(GH2, "src/f.js", 1);
  n(SAM, "src/g.js", 2);
  n(SAM_OLD, "src/h.js", 5);
  // The mailmap names Sam's email: its name wins over the newest commit's ("sam").
  repo.write(".mailmap", "Samantha Q <sam@corp.io>\n").commit("mailmap", PAT);
});
afterAll(() => repo.cleanup());

test("an email names no one when it is a placeholder or shared, and someone when it has a user part", () => {
  for (const e of ["root@localhost", "noreply@github.com", "no-reply@example.org", "albertoleal", "riadh@riadh-K70ID", "", "x@(none)", "me@host.local"]) expect({ e, shared: sharedEmail(e) }).toEqual({ e, shared: true });
  for (const e of ["tj@vision-media.ca", "49699333+dependabot[bot]@users.noreply.github.com", "yawn.localhost@gmail.com", "root@groundcomputing.com".replace("root", "rooty")]) expect({ e, shared: sharedEmail(e) }).toEqual({ e, shared: false });
  const map = groupIdentities([
    { author: "a", email: "X@y.io", time: 1 },
    { author: "B", email: "x@y.io", time: 2 },
    { author: "r1", email: "root@localhost", time: 1 },
    { author: "r2", email: "root@localhost", time: 2 },
  ]);
  expect([...map]).toEqual([
    ["a\0X@y.io", "B\0x@y.io"],
    ["B\0x@y.io", "B\0x@y.io"],
  ]);
});

test("contributors count one row a person, as git log grouped by email says, with git blame's lines", async () => {
  const person = gitPeople(repo.dir);
  expect(person(PAT_OLD.name, PAT_OLD.email)).toBe("Pat Doe <pat@corp.io>");
  expect(person(SAM.name, SAM.email)).toBe("Samantha Q <sam@corp.io>");
  const r = await ask("contributors", repo.dir, { limit: 100 });
  const mine = new Map(r.results.map((x: any) => [`${x.author} <${x.email}>`, x.lines]));
  expect(mine).toEqual(blameByPerson(repo.dir, "", person));
  expect(mine.get("Pat Doe <pat@corp.io>")).toBe(10 + 1);
  // Shared emails stay apart: two people behind root@localhost, two behind noreply@github.com.
  expect(r.results.filter((x: any) => x.email === "root@localhost").length).toBe(2);
  expect(r.results.filter((x: any) => x.email === "noreply@github.com").length).toBe(2);
  expect(mine.get("Samantha Q <sam@corp.io>")).toBe(7);
  // Blame keeps git's names.
  const b = await ask("blame", repo.dir, { path: "src/a.js" });
  expect(Object.values(b.commits).map((c: any) => c[0])).toEqual([PAT_OLD.name]);
});

test("owners and the truck factor count the person, not each of their names", async () => {
  const r = await ask("owners", repo.dir, { path: "src", by: "file", limit: 100 });
  const a = r.results.find((x: any) => x.path === "src/a.js");
  expect(a.main).toMatchObject({ author: "Pat Doe", email: "pat@corp.io", share: 1 });
  const all = await ask("owners", repo.dir, { path: "src", limit: 100 });
  expect(all.authors[0]).toMatchObject({ author: "Pat Doe", email: "pat@corp.io", lines: 10 });
  // Pat authors a, b (and the mailmap): 3 of 9 files; Samantha g, h: taken first, they orphan 5.
  expect(all.truckAuthors[0]).toEqual({ author: "Pat Doe", email: "pat@corp.io" });
  expect(all.truckAuthors.some((p: any) => p.author === "Samantha Q")).toBe(true);
});

test("questions asked at once on a new index all count the person, none a name the mailmap look-up has not merged yet", async () => {
  const before = process.env.LORE_HOME;
  isolateHome();
  try {
    const asks = ["src/a.js", "src/h.js"].flatMap((path) => Array.from({ length: 4 }, () => ask("contributors", repo.dir, { path })));
    const names = (await Promise.all(asks)).map((r) => `${r.results[0].author} <${r.results[0].email}>`);
    expect(names).toEqual([...Array(4).fill("Pat Doe <pat@corp.io>"), ...Array(4).fill("Samantha Q <sam@corp.io>")]);
  } finally {
    process.env.LORE_HOME = before;
  }
});

describe.skipIf(!hasExpress)("express", () => {
  let dir = "";
  beforeAll(async () => {
    if (hasExpress) dir = await indexedClone("express");
  }, 120_000);

  test("TJ Holowaychuk's three names in git shortlog are one person in contributors and owners of lib", async () => {
    const shortlog = runGit(dir, ["shortlog", "-sne", "HEAD"]).split("\n").filter((l) => /<tj@vision-media\.ca>$/i.test(l));
    expect(shortlog.length).toBe(3);
    const newest = runGit(dir, ["log", "-1", "--format=%aN <%aE>", "--author=tj@vision-media.ca", "HEAD"]).trim();
    const person = gitPeople(dir);
    expect(person("visionmedia", "tj@vision-media.ca")).toBe(newest);
    const r = await ask("contributors", dir, { path: "lib", limit: 1000 });
    const tj = r.results.filter((x: any) => x.email.toLowerCase() === "tj@vision-media.ca");
    expect(tj.map((x: any) => `${x.author} <${x.email}>`)).toEqual([newest]);
    const sums = blameByPerson(dir, "lib", person);
    expect(new Map(r.results.filter((x: any) => x.lines > 0).map((x: any) => [`${x.author} <${x.email}>`, x.lines]))).toEqual(sums);
    // Split three ways, TJ's 941 lines were 523 + 418 (+ visionmedia's).
    expect(tj[0].lines).toBeGreaterThan(900);
    const o = await ask("owners", dir, { path: "lib", by: "file" });
    expect(`${o.authors[0].author} <${o.authors[0].email}>`).toBe([...sums].sort((a, b) => b[1] - a[1])[0]![0]);
    for (const row of o.results) {
      const top = [...blameByPerson(dir, row.path, person)].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
      expect({ path: row.path, main: `${row.main.author} <${row.main.email}>` }).toEqual({ path: row.path, main: top });
    }
    expect(o.truckAuthors).toEqual([{ author: "TJ Holowaychuk", email: "tj@vision-media.ca" }]);
  }, 300_000);
});

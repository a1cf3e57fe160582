/**
 * The model's copy of an answer (structuredContent): no repo unless named, no echo of the
 * question, 12-hex ids, no truncated: false, rows with the fields a task reads, a commit's day;
 * what it leaves out is optional in the tool's output schema, and everything else is as --json has it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { TestRepo, lines } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { forModel } from "../../src/mcp/model-view.ts";
import { expandTuples } from "../../src/mcp/model-rows.ts";
import { outputSchema } from "../../src/mcp/schemas.ts";
import { QUERIES } from "../../src/queries/index.ts";

let repo: TestRepo;
beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  for (let i = 0; i < 4; i++) repo.write("src/a.js", lines("a", i)).write(`src/b${i % 2}.js`, lines("b", i)).commit(`change ${i}`);
  repo.git("checkout", "-q", "-b", "topic");
  repo.write("src/c.js", lines("c")).commit("topic");
  repo.git("checkout", "-q", "main");
});
afterAll(() => repo.cleanup());

const schemaOf = (name: string) => outputSchema(QUERIES.find((q) => q.name === name)!);

test("the envelope: no repo, rev or echo of the question; the ids of what the answer is about in 12 hex", async () => {
  const full = await ask("compare", repo.dir, { base: "main", head: "topic" });
  const mine = forModel("compare", full, false);
  expect(mine.repo).toBeUndefined();
  expect(mine.paths).toBeUndefined();
  expect([mine.base, mine.head]).toEqual([full.base.slice(0, 12), full.head.slice(0, 12)]);
  // behind: 0 says the merge base is base; topic's files are all listed, so their count goes too.
  expect([full.behind, full.mergeBase, mine.mergeBase, mine.filesTotal]).toEqual([0, full.base, undefined, undefined]);
  const back = forModel("compare", await ask("compare", repo.dir, { base: "topic", head: "main" }), false);
  expect(back.mergeBase).toBe(full.mergeBase.slice(0, 12));
  expect(mine.truncated).toBeUndefined();
  expect(forModel("compare", full, true).repo).toBe(repo.dir);
  // compare's commits leave their files and +/- to `files`, their authors and days to log; each keeps its id and subject, as git log --oneline.
  expect((mine.commits as any[])[0]).toEqual({ sha: full.commits[0].sha, subject: full.commits[0].subject });
  // Its files, each "+ - status? oldPath?" (git diff --numstat's order), by path where no folder holds two (by folder otherwise): topic added src/c.js; expandTuples gives them back as [+, -, status?].
  expect(mine.files).toEqual({ "src/c.js": "1 0 A" });
  expect((expandTuples(mine) as any).files).toEqual({ "src/c.js": [1, 0, "A"] });
  expect(schemaOf("compare").safeParse(mine).success).toBe(true);
});

test("rows: hotspots commits by path in score order; cochange [score, count] by path, best first; log's files without their sums", async () => {
  const hot = await ask("hotspots", repo.dir, {});
  const h = forModel("hotspots", hot, false);
  expect(Object.entries(h.commits as object)).toEqual(hot.results.map((r: any) => [r.path, r.commits]));
  expect(schemaOf("hotspots").safeParse(h).success).toBe(true);
  // Under a folder, the paths are said from it, and the knee once.
  const src = await ask("hotspots", repo.dir, { path: "src" });
  const s = forModel("hotspots", src, false);
  expect(s.under).toBe("src/");
  expect(Object.entries(s.commits as object)).toEqual(src.results.map((r: any) => [r.path.slice(4), r.commits]));
  const flagged = src.results.filter((r: any) => r.hotspot).map((r: any) => r.path);
  expect(src.results.filter((r: any) => r.commits > (s.hotspotsAbove ?? Infinity)).map((r: any) => r.path)).toEqual(flagged);
  expect(schemaOf("hotspots").safeParse(s).success).toBe(true);
  // A window that reached the first commit (a small history) goes; one that was cut, or a date, stays.
  expect([h.window, s.window]).toEqual([undefined, undefined]);
  expect(forModel("hotspots", await ask("hotspots", repo.dir, { commits: "1" }), false, { commits: "1" }).window).toEqual({ commits: 1 });
  const c = forModel("cochange", await ask("cochange", repo.dir, { paths: ["src/a.js"] }), false);
  const co = await ask("cochange", repo.dir, { paths: ["src/a.js"] });
  expect(c.columns).toEqual(["score", "count"]);
  expect(Object.entries(c.results as object)).toEqual(co.results.map((r: any) => [r.path, [r.score, r.count]]));
  expect(c.window).toBeUndefined();
  expect((forModel("cochange", await ask("cochange", repo.dir, { paths: ["src/a.js"], commits: "1" }), false).window as any)?.from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(schemaOf("cochange").safeParse(c).success).toBe(true);
  const full = await ask("log", repo.dir, { limit: 2 });
  const l = forModel("log", full, false);
  // (its files as { path: "additions deletions" }: none was added, deleted or renamed)
  const files = Object.fromEntries(full.commits[0].files.map((f: any) => [f.path, `${f.additions} ${f.deletions}`]));
  // Commits as tuples, their fields named once.
  expect(l.columns).toEqual(["sha", "author", "time", "subject", "files"]);
  expect((l.commits as any[])[0]).toEqual([full.commits[0].sha, full.commits[0].author, full.commits[0].time.slice(0, 10), full.commits[0].subject, files]);
  expect(l.continue).toMatch(/^\d+$/);
  expect(schemaOf("log").safeParse(l).success).toBe(true);
  // Asked about a folder, its files are said from it (`under`, first); expandTuples gives the paths back.
  const inSrc = await ask("log", repo.dir, { paths: ["src"], limit: 3 });
  const u = forModel("log", inSrc, false);
  expect(Object.keys(u)[0]).toBe("under");
  expect(u.under).toBe("src/");
  expect(Object.keys((u.commits as any[])[0][4]).some((p) => p.startsWith("src/"))).toBe(false);
  expect((expandTuples(u) as any).commits.map((c: any) => Object.keys(c.files))).toEqual(inSrc.commits.map((c: any) => c.files.map((f: any) => f.path)));
  expect(schemaOf("log").safeParse(u).success).toBe(true);
});

test("blame's commits keep author and subject, with the day; status is left whole", async () => {
  const full = await ask("blame", repo.dir, { path: "src/a.js" });
  const b = forModel("blame", full, false);
  for (const [sha, c] of Object.entries(full.commits as Record<string, [string, string, string]>)) expect((b.commits as any)[sha]).toEqual([c[0], c[1].slice(0, 10), c[2]]);
  expect(b.hunks).toEqual(full.hunks);
  expect(schemaOf("blame").safeParse(b).success).toBe(true);
  const s = await ask("status", repo.dir, {});
  expect(forModel("status", s, false)).toEqual(s);
});

test("people: owners' authors as { name: lines }, contributors' top people as { Name <email>: [lines, commits, lastChanged] }", async () => {
  const own = await ask("owners", repo.dir, { path: "src" });
  const o = forModel("owners", own, false);
  // The first author, and those with a tenth of the first's lines or more.
  const kept = own.authors.filter((a: any, i: number) => i === 0 || a.lines * 10 >= own.authors[0].lines);
  expect(Object.entries(o.authors as object)).toEqual(kept.map((a: any) => [a.author, a.lines]));
  // lines: the authors' lines say it when every author is listed; the truck factor when one person holds everything.
  const sum = kept.reduce((n: number, a: any) => n + a.lines, 0);
  // (how many files the folder has is not who owns it: left out)
  const firstHolds = own.truckFactor === 1 && own.authors[0].lines * 2 > own.lines && (!own.truckAuthors?.length || own.truckAuthors[0].author === own.authors[0].author);
  expect([o.lines, o.files, o.truckFactor]).toEqual([sum === own.lines ? undefined : own.lines, undefined, firstHolds ? undefined : own.truckFactor]);
  expect(schemaOf("owners").safeParse(o).success).toBe(true);
  const con = await ask("contributors", repo.dir, { path: "src" });
  const c = forModel("contributors", con, false);
  expect(c.columns).toEqual(["lines", "commits", "lastChanged"]);
  expect(Object.entries(c.results as object)).toEqual(con.results.slice(0, 3).map((r: any) => [`${r.author} <${r.email}>`, [r.lines, r.commits, r.lastChanged.slice(0, 10)]]));
  expect(schemaOf("contributors").safeParse(c).success).toBe(true);
});

test("search leaves out a snippet its subject already says; history leaves out the rev it is as of", async () => {
  const full = await ask("search", repo.dir, { query: "change" });
  const raw = forModel("search", full, false);
  expect(schemaOf("search").safeParse(raw).success).toBe(true);
  const m = expandTuples(raw) as Record<string, unknown>;
  expect((m.results as any[]).map((r) => r.sha)).toEqual(full.results.map((r: any) => r.sha));
  // Left out only when the subject says the whole snippet or a word it marks (the subject shows why it matched).
  const marked = (sn: string) => [...sn.matchAll(/«([^»]*)»/g)].map((x) => x[1]!.toLowerCase());
  const says = (subject: string, sn: string) => subject.includes(sn.replace(/[«»…]/g, "")) || marked(sn).some((w) => subject.toLowerCase().split(/[^\p{L}\p{N}_]+/u).includes(w));
  for (const [i, r] of (m.results as any[]).entries()) expect(r.snippet === undefined ? says(r.subject, full.results[i].snippet) : r.snippet === full.results[i].snippet).toBe(true);
  // A match in the body alone keeps its snippet.
  for (const [i, r] of (m.results as any[]).entries()) if (!says(r.subject, full.results[i].snippet)) expect(r.snippet).toBe(full.results[i].snippet);
  expect((m.results as any[]).some((r) => r.snippet === undefined)).toBe(true);
  // The oldest commit's diff names the files it added the text in: its lone row's files go.
  const oldest = await ask("search", repo.dir, { query: "b", code: true, oldest: true, limit: 1 });
  const o = forModel("search", oldest, false) as any;
  expect(oldest.results[0].files.length).toBeGreaterThan(0);
  expect(Object.keys(o.diff)).toEqual(oldest.results[0].files.map((f: any) => f.path));
  expect(o.results[0].files).toBeUndefined();
  expect(schemaOf("search").safeParse(o).success).toBe(true);
  const h = forModel("history", await ask("history", repo.dir, { path: "src/a.js" }), false);
  expect([h.rev, h.path]).toEqual([undefined, "src/a.js"]);
  expect(schemaOf("history").safeParse(h).success).toBe(true);
});

test("lists of commits are tuples under columns, a row's own fields in an object at its end; one row stays an object", async () => {
  repo.git("mv", "src/b1.js", "src/moved.js");
  repo.commit("move b1");
  try {
    const full = await ask("history", repo.dir, { path: "src/moved.js" });
    const h = forModel("history", full, false);
    expect(h.columns).toEqual(["sha", "author", "time", "subject", "additions", "deletions"]);
    const rows = h.commits as unknown[][];
    expect(rows.length).toBe(full.commits.length);
    // The rename's row says so in its own object; the others are the columns alone.
    const own = rows.filter((r) => r.length === 7).map((r) => r[6]);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((o) => o && typeof o === "object" && !Array.isArray(o))).toBe(true);
    expect(schemaOf("history").safeParse(h).success).toBe(true);
    // And back: the rows as the model's copy had them before (a day for the time).
    const back = (expandTuples(h) as any).commits;
    expect(back.map((c: any) => [c.sha, c.status, c.oldPath])).toEqual(full.commits.map((c: any) => [c.sha, c.status, c.oldPath]));
    const one = forModel("log", await ask("log", repo.dir, { limit: 1 }), false);
    expect([one.columns, Array.isArray((one.commits as any[])[0])]).toEqual([undefined, false]);
  } finally {
    repo.git("reset", "-q", "--hard", "HEAD~1");
  }
});

test("small answers: no total that repeats the only row, no truck factor of 1 when its person is the first author, with most lines", async () => {
  const { TestRepo, ALICE, BOB } = await import("../helpers/git-repo.ts");
  const r = new TestRepo();
  try {
    r.write("a/x.js", "1\n2\n").write("a/y.js", "1\n").commit("one", ALICE);
    const o = forModel("owners", await ask("owners", r.dir, { path: "a" }), false);
    expect(o).toEqual({ authors: { "Alice Example": 3 } });
    // Two people, the first holding most lines and the truck factor's one person: the rows say it.
    r.write("a/z.js", "1\n").commit("two", BOB);
    const two = await ask("owners", r.dir, { path: "a" });
    expect([two.truckFactor, two.truckAuthors.map((a: any) => a.author)]).toEqual([1, ["Alice Example"]]);
    expect(forModel("owners", two, false)).toEqual({ authors: { "Alice Example": 3, "Bob Example": 1 } });
    // Two files each: both must leave before most files are orphaned, a truck factor of 2 the rows do not say.
    r.write("a/w.js", "1\n2\n3\n").commit("three", BOB);
    const three = await ask("owners", r.dir, { path: "a" });
    expect([three.truckFactor, forModel("owners", three, false).truckFactor]).toEqual([2, 2]);
    const c = forModel("contributors", await ask("contributors", r.dir, { path: "a" }), false);
    expect(c.totalLines).toBeUndefined();
    const s = forModel("search", await ask("search", r.dir, { query: "one" }), false);
    expect(s.total).toBeUndefined();
    for (const [q, v] of [["owners", o], ["contributors", c], ["search", s]] as const) expect(schemaOf(q).safeParse(v).success).toBe(true);
  } finally {
    r.cleanup();
  }
});

test("owners names whom to ask: a person with less than a tenth of the first's lines is left out unless a limit is given, lines says the rest, a truck author among them stays named", async () => {
  const { TestRepo, ALICE, BOB } = await import("../helpers/git-repo.ts");
  const r = new TestRepo();
  try {
    // Bob writes the file; Alice rewrites all but its last line: Bob holds 1 line of 21, yet he made the file (its truck author).
    r.write("f.js", lines(...Array.from({ length: 21 }, (_, i) => `bob ${i}`))).commit("bob's file", BOB);
    r.write("f.js", lines(...Array.from({ length: 20 }, (_, i) => `alice ${i}`), "bob 20")).commit("alice's rewrite", ALICE);
    const blamed = new Map<string, number>();
    for (const m of r.git("blame", "--line-porcelain", "HEAD", "--", "f.js").matchAll(/^author (.*)$/gm)) blamed.set(m[1]!, (blamed.get(m[1]!) ?? 0) + 1);
    expect([...blamed]).toEqual([["Alice Example", 20], ["Bob Example", 1]]);
    const full = await ask("owners", r.dir, { path: "f.js" });
    expect(full.authors.map((a: any) => [a.author, a.lines])).toEqual([...blamed]);
    const o = forModel("owners", full, false);
    expect(o.authors).toEqual({ "Alice Example": 20 });
    expect(o.lines).toBe(21);
    expect(o.truckAuthors).toEqual(full.truckAuthors.map((a: any) => a.author));
    expect(o.truckAuthors).toContain("Bob Example");
    expect(schemaOf("owners").safeParse(o).success).toBe(true);
    // A limit the agent gives is kept to: it asked for that many people.
    const asked = forModel("owners", await ask("owners", r.dir, { path: "f.js", limit: 5 }), false, { path: "f.js", limit: 5 });
    expect(asked.authors).toEqual(Object.fromEntries(blamed));
  } finally {
    r.cleanup();
  }
});

test("a line history's diffs are git diff -U0's hunks of each commit; its path and range, as asked, are not echoed", async () => {
  const r = new TestRepo();
  try {
    const text = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    r.write("f.txt", lines(...text)).commit("one");
    const edited = [...text.slice(0, 4), "line 5 changed", ...text.slice(5, 10), "inserted", ...text.slice(10, 14), ...text.slice(15)];
    const sha = r.write("f.txt", lines(...edited)).commit("two");
    const full = await ask("history", r.dir, { path: "f.txt", lines: "1,19" });
    const h = expandTuples(forModel("history", full, false, { path: "f.txt", lines: "1,19" })) as any;
    expect([h.path, h.range]).toEqual([undefined, undefined]);
    const git = r.git("show", "-U0", "--format=", sha, "--", "f.txt");
    // (git's headers name the function-ish line before each hunk; git log -L's do not)
    expect(h.commits[0].diff).toBe(git.slice(git.indexOf("@@")).replace(/\n$/, "").replace(/^(@@ [^@]+ @@).*$/gm, "$1"));
    // The first commit added every line: its diff is all of them.
    expect(h.commits[1].diff.split("\n").filter((l: string) => l.startsWith("+"))).toHaveLength(full.commits[1].diff.split("\n").filter((l: string) => l.startsWith("+")).length);
    expect(schemaOf("history").safeParse(forModel("history", full, false, { path: "f.txt", lines: "1,19" })).success).toBe(true);
  } finally {
    r.cleanup();
  }
});

test("cochange's partners in one folder are said from it (`under`); expandTuples gives the paths back", async () => {
  const r = new TestRepo();
  try {
    for (let i = 0; i < 3; i++) r.write("deep/er/folder/x.js", lines("x", i)).write("deep/er/folder/y.js", lines("y", i)).write("deep/er/folder/z.js", lines("z", i)).write("deep/er/folder/w.js", lines("w", i)).commit(`c${i}`);
    const full = await ask("cochange", r.dir, { paths: ["deep/er/folder/x.js"] });
    const c = forModel("cochange", full, false) as any;
    expect(c.under).toBe("deep/er/folder/");
    expect(Object.keys(c.results).sort()).toEqual(["w.js", "y.js", "z.js"]);
    expect((expandTuples(c) as any).results).toEqual(full.results.map((x: any) => ({ path: x.path, score: x.score, count: x.count })));
    expect(schemaOf("cochange").safeParse(c).success).toBe(true);
  } finally {
    r.cleanup();
  }
});

test("review: files as git diff --numstat says them by path, the lines each rewrites beside, commits by day, no `with` of every file", async () => {
  const { TestRepo, ALICE } = await import("../helpers/git-repo.ts");
  const r = new TestRepo();
  try {
    for (let i = 0; i < 3; i++) r.write("a.js", lines("a", i)).write("b.js", lines("b", i)).write("c.js", lines("c", i)).commit(`round ${i}`, ALICE);
    r.write("a.js", lines("a", 9)).write("b.js", lines("b", 9)).write("new.js", "n\n");
    const full = await ask("review", r.dir);
    const mine = forModel("review", full, false) as any;
    const numstat = r.git("diff", "--numstat", "HEAD").trim().split("\n").map((l) => l.split("\t"));
    expect(mine.files).toEqual({ ...Object.fromEntries(numstat.map(([a, d, p]) => [p, `${a} ${d}`])), "new.js": "1 0 A" });
    expect(Object.keys(mine.rewrites)).toEqual(["a.js", "b.js"]);
    expect(mine.rewrites["a.js"]).toEqual(full.files.find((f: any) => f.path === "a.js").rewrites);
    expect(Object.keys(mine).indexOf("rewrites")).toBe(Object.keys(mine).indexOf("files") + 1);
    expect(Object.values(mine.commits).every((c: any) => /^\d{4}-\d{2}-\d{2}$/.test(c[1]))).toBe(true);
    expect([mine.filesTotal, mine.fixes]).toEqual([undefined, {}]);
    // c.js changed with both edited files in every commit; they are not every changed file (new.js is new), so `with` names them.
    expect(mine.missing[0]).toMatchObject({ path: "c.js", with: ["a.js", "b.js"] });
    r.git("add", "new.js");
    r.commit("new", ALICE);
    r.write("a.js", lines("a", 10)).write("b.js", lines("b", 10));
    const two = forModel("review", await ask("review", r.dir), false) as any;
    expect(two.missing[0].path).toBe("c.js");
    expect(two.missing[0].with).toBeUndefined();
    for (const v of [mine, two]) expect(schemaOf("review").safeParse(v).success).toBe(true);
  } finally {
    r.cleanup();
  }
});

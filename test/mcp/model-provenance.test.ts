/** The model's copy of a line's blame and of contributors --by agent: what the answer's own rows say is not said twice, and every fact stays. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ALICE, BOB, TestRepo, lines } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { forModel } from "../../src/mcp/model-view.ts";
import { outputSchema } from "../../src/mcp/schemas.ts";
import { QUERIES } from "../../src/queries/index.ts";

let repo: TestRepo;
beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  repo.write("src/a.js", lines("one", "two", "three")).commit("Add a (#12)", ALICE);
  repo.write("src/a.js", lines("one", "TWO", "three")).commit("Shout the second line (#13)\n\nCo-authored-by: Claude <noreply@anthropic.com>", BOB);
  repo.write("docs/guide.md", lines("# Guide", "Read me.")).commit("Write the guide", ALICE);
});
afterAll(() => repo.cleanup());

const schemaOf = (name: string) => outputSchema(QUERIES.find((q) => q.name === name)!);
const shaOf = (subject: string) => repo.git("log", "--format=%H", `--grep=${subject}`).trim();

test("a line one commit wrote is said by its commits row alone, its provenance beside it: no hunk, no file length, no pr its subject says", async () => {
  const input = { path: "src/a.js", startLine: 2, endLine: 2 };
  const full = await ask("blame", repo.dir, input);
  const b = forModel("blame", full, false, input);
  const sha = shaOf("Shout").slice(0, 12);
  expect([b.hunks, b.lines, b.range]).toEqual([undefined, undefined, undefined]);
  // git blame -L 2,2 names the same commit; its subject ends (#13), the pr lore found; the agent stays.
  expect(repo.git("blame", "--porcelain", "-L", "2,2", "--", "src/a.js").slice(0, 12)).toBe(sha);
  expect((full.commits as any)[sha][3]).toMatchObject({ pr: 13, agent: "claude" });
  // The commit's provenance is the line's: the agent beside the row, which says who, when and why.
  expect((b.commits as any)[sha]).toEqual([BOB.name, (full.commits as any)[sha][1].slice(0, 10), "Shout the second line (#13)"]);
  expect([b.agent, b.pr, b.release]).toEqual(["claude", undefined, undefined]);
  expect(schemaOf("blame").safeParse(b).success).toBe(true);
});

test("a line's release, as git tag --contains finds it, is said beside its one commit; a range of two commits keeps it in each row", async () => {
  repo.git("tag", "v1.0.0");
  repo.write("src/a.js", lines("ONE", "TWO", "three")).commit("Shout the first line (#14)", ALICE);
  try {
    const input = { path: "src/a.js", startLine: 2, endLine: 2 };
    const b = forModel("blame", await ask("blame", repo.dir, input), false, input);
    const sha = repo.git("blame", "--porcelain", "-L", "2,2", "--", "src/a.js").slice(0, 40);
    expect(repo.git("tag", "--contains", sha).trim()).toBe("v1.0.0");
    expect(Object.keys(b.commits as object)).toEqual([sha.slice(0, 12)]);
    expect([b.release, b.agent, (b.commits as any)[sha.slice(0, 12)].length]).toEqual(["v1.0.0", "claude", 3]);
    expect(schemaOf("blame").safeParse(b).success).toBe(true);
    // Lines 1-2: two commits, each row with its own (the newer one is in no release yet).
    const two = { path: "src/a.js", startLine: 1, endLine: 2 };
    const r = forModel("blame", await ask("blame", repo.dir, two), false, two);
    expect(r.release).toBeUndefined();
    expect(Object.values(r.commits as object).map((c: any) => c[3]?.release)).toEqual(["unreleased", "v1.0.0"]);
  } finally {
    repo.git("reset", "-q", "--hard", "HEAD~1");
    repo.git("tag", "-d", "v1.0.0");
  }
});

test("a range two commits wrote keeps its hunks and the file's length", async () => {
  const input = { path: "src/a.js", startLine: 1, endLine: 2 };
  const full = await ask("blame", repo.dir, input);
  const b = forModel("blame", full, false, input);
  expect([b.hunks, b.lines]).toEqual([full.hunks, full.lines]);
  expect(Object.values(b.commits as object).map((c: any) => c.length)).toEqual([3, 4]);
});

test("contributors by agent names only the people who wrote with an agent, and keeps the total where no agent wrote", async () => {
  const src = forModel("contributors", await ask("contributors", repo.dir, { path: "src", by: "agent" }), false, { by: "agent" });
  expect(src.agents).toEqual({ claude: 1 });
  expect(Object.keys(src.results as object)).toEqual([`${BOB.name} <${BOB.email}>`]);
  expect(src.totalLines).toBe(3);
  const docs = forModel("contributors", await ask("contributors", repo.dir, { path: "docs", by: "agent" }), false, { by: "agent" });
  expect(docs).toEqual({ totalLines: 2 });
  expect(schemaOf("contributors").safeParse(docs).success).toBe(true);
  // Without by agent, the people are listed as before.
  expect(Object.keys(forModel("contributors", await ask("contributors", repo.dir, { path: "docs" }), false).results as object)).toEqual([`${ALICE.name} <${ALICE.email}>`]);
});

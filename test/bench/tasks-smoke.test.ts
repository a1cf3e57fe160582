/** The task benchmark runs: on a small generated history, every kind of task is drawn, done both ways, and lore's facts equal git's. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ALICE, BOB, CAROL, TestRepo, lines } from "../helpers/git-repo.ts";
import { isolateHome } from "../helpers/lore.ts";
import { closeAll } from "../../src/index/indexes.ts";
import { KINDS, runRepo, table } from "./tasks.ts";

let repo: TestRepo;
beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  const people = [ALICE, BOB, CAROL];
  for (let i = 0; i < 24; i++) {
    const who = people[i % 3]!;
    repo.write("src/parser.js", lines(...Array.from({ length: 30 + i }, (_, k) => (k % 7 === 0 ? `function parse${k}(input) {` : `  return "parser step ${k} of ${Math.min(k, i)}";`))));
    repo.write(`src/util${i % 4}.js`, lines(`const helper${i % 4} = (x) => x + ${i};`, "module.exports = { helper };", `// revision ${i}`));
    repo.write(`docs/guide${i % 3}.md`, lines(`# Guide ${i % 3}`, `The parser handles case ${i}.`));
    // Squash-merged pull requests, some written with an agent, a release every eight: the provenance kinds have something to find.
    const agent = i % 5 === 0 ? "\n\nCo-authored-by: Claude <noreply@anthropic.com>" : "";
    repo.commit(`${i % 2 ? "Improve" : "Fix"} the parser, step ${i} (#${100 + i})${agent}`, who);
    if (i % 8 === 7) repo.git("tag", `v1.${i >> 3}.0`);
  }
  repo.git("checkout", "-q", "-b", "topic");
  for (let i = 0; i < 3; i++) repo.write(`src/topic${i}.js`, lines(`const topic${i} = "topic value ${i}";`)).commit(`Topic work ${i} for the parser`, BOB);
  repo.git("checkout", "-q", "main");
  repo.write("docs/guide0.md", lines("# Guide 0", "Rewritten.")).commit("Rewrite the first guide", CAROL);
  repo.merge("topic");
});
afterAll(() => {
  closeAll();
  repo.cleanup();
});

test("every kind of task runs on a small history, with lore's facts equal to git's", async () => {
  const run = await runRepo("small", repo.dir, 1, 24);
  const drawn = new Set(run.results.map((r) => r.kind));
  expect(KINDS.filter((k) => !drawn.has(k.name)).map((k) => k.name)).toEqual([]);
  expect(run.results.filter((r) => r.problems.length).map((r) => `${r.kind} ${r.what}: ${r.problems.join("; ")}`)).toEqual([]);
  // Both copies are measured: the JSON (tokens) and the text (text), each beside the values alone.
  for (const r of run.results) expect(r.git.tokens > 0 && r.lore.tokens > 0 && r.lore.text! > 0 && r.lore.values! > 0 && r.lore.flat! >= r.lore.values! && r.lore.calls >= 1).toBe(true);
  expect(table(run).rows.length).toBe(KINDS.length);
}, 120_000);

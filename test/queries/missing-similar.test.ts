import { expect, test } from "bun:test";
import { MISSING_PARAMS, rankMissing, type Evidence, type PastCommit } from "../../src/queries/run/missing-rank.ts";
import { similarVotes } from "../../src/queries/run/missing-similar.ts";
import { whyOf } from "../../src/queries/run/missing-why.ts";

const commits = new Map<number, PastCommit>([
  [1, { files: ["a.ts", "b.ts", "x.ts"], age: 0 }],
  [2, { files: ["a.ts", "y.ts", "z1.ts", "z2.ts", "z3.ts"], age: 1 }],
  [3, { files: ["a.ts", "b.ts", "x.ts", "w.ts"], age: 2 }],
  [4, { files: ["lib/q.ts", "lib/r.ts"], age: 3 }],
]);
const files = ["a.ts", "b.ts", "x.ts", "y.ts", "w.ts", "z1.ts", "z2.ts", "z3.ts", "lib/q.ts", "lib/r.ts"];
const e: Evidence = { inputs: ["a.ts", "b.ts"], touches: [[1, 2, 3], [1, 3]], commits, tree: new Set(files), change: new Set(["a.ts", "b.ts"]), added: [], recent: [], words: new Set(), imports: new Map(), remains: new Map() };

test("the commits most like the change vote: two of a.ts's and b.ts's, not the sweeping one of a.ts alone", () => {
  const v = similarVotes(e, 2, [1, 2, 3, 4]);
  expect([...v.keys()].sort()).toEqual(["w.ts", "x.ts"]);
  expect(v.get("x.ts")).toMatchObject({ count: 2, k: 2, share: 1 });
});

test("a candidate the similar commits put first says so", () => {
  const off = { ...MISSING_PARAMS, partner: 0, habit: 0, place: 0, names: { test: 0, tested: 0, types: 0, named: 0 } };
  const r = rankMissing(e, { ...off, similar: 100, similarK: 2 }, 5)[0]!;
  expect(r.path).toBe("x.ts");
  expect(whyOf(r, e, (f) => f)).toBe("changed in 2 of the 2 past commits most like yours");
});

/** A small repository whose shape the report tests know: five text files in three folders, one binary, two authors. */
import { ALICE, BOB, TestRepo } from "../helpers/git-repo.ts";

const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}`).join("\n") + "\n";

/** The files with lines at HEAD and how many lines each has; the largest is big/data.txt. */
export const FILE_LINES: Record<string, number> = {
  "big/data.txt": 120,
  "src/app.ts": 60,
  "src/util.ts": 25,
  "src/deep/inner.ts": 12,
  "README.md": 8,
};

export function reportRepo(): TestRepo {
  const repo = new TestRepo();
  repo.write("README.md", lines(8, "readme")).write("src/app.ts", lines(40, "app")).write("src/util.ts", lines(25, "util")).commit("start", ALICE);
  repo.write("src/app.ts", lines(50, "app")).write("src/util.ts", lines(25, "util2")).commit("app and util together", BOB);
  repo.write("src/app.ts", lines(55, "app")).write("src/util.ts", lines(25, "util3")).write("README.md", lines(8, "readme2")).commit("app, util and readme", ALICE);
  repo.write("big/data.txt", lines(120, "data")).write("logo.bin", new Uint8Array([0, 1, 2, 0, 255])).commit("data", BOB);
  repo.write("src/deep/inner.ts", lines(12, "inner")).write("src/app.ts", lines(60, "app")).commit("inner with app", ALICE);
  repo.write("old.txt", "gone soon\n").commit("a file that will go", BOB);
  repo.remove("old.txt").commit("remove it", BOB);
  return repo;
}

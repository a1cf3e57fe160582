/** The 30 commits the carried-index tests put on top of a generated history: edits, a rename, a deletion, a side branch merged. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BOB, type TestRepo } from "./git-repo.ts";

export function thirtyMore(repo: TestRepo, files: string[]): void {
  repo.git("checkout", "-q", "-b", "side");
  for (let i = 0; i < 3; i++) repo.write(files[i]!, readFileSync(join(repo.dir, files[i]!), "utf8") + `side ${i}\n`).commit(`side ${i}`, BOB);
  repo.git("checkout", "-q", "main");
  for (let i = 0; i < 26; i++) {
    const f = files[3 + (i % 9)]!;
    if (i === 5) repo.git("mv", files[20]!, `${files[20]!}.moved`);
    if (i === 9) repo.remove(files[21]!);
    repo.write(f, readFileSync(join(repo.dir, f), "utf8") + `main ${i}\n`).commit(`main ${i}`);
  }
  repo.merge("side");
}

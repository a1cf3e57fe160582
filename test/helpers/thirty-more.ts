/** The 30 commits the carried-index tests put on top of a generated history: edits, a rename, a deletion, a side branch merged. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BOB, type TestRepo } from "./git-repo.ts";

export function thirtyMore(repo: TestRepo, files: string[]): void {
  // One git fast-import per branch (TestRepo.commits); the files' text is kept here as the commits change it.
  const read = (f: string) => readFileSync(join(repo.dir, f), "utf8");
  repo.git("checkout", "-q", "-b", "side");
  repo.commits((b) => {
    for (let i = 0; i < 3; i++) b.write(files[i]!, read(files[i]!) + `side ${i}\n`).commit(`side ${i}`, BOB);
  });
  repo.git("checkout", "-q", "main");
  const text = new Map<string, string>();
  repo.commits((b) => {
    for (let i = 0; i < 26; i++) {
      const f = files[3 + (i % 9)]!;
      if (i === 5) b.remove(files[20]!).write(`${files[20]!}.moved`, read(files[20]!));
      if (i === 9) b.remove(files[21]!);
      text.set(f, (text.get(f) ?? read(f)) + `main ${i}\n`);
      b.write(f, text.get(f)!).commit(`main ${i}`);
    }
  });
  repo.merge("side");
}

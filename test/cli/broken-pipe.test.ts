/** A reader that goes away (lore … | head) ends lore quietly with git's status, never a stack trace. */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/git-repo.ts";
import { hasExpress } from "../helpers/express.ts";
import { indexedClone } from "../helpers/corpus-index.ts";
import { loreArgv } from "../helpers/lore-argv.ts";


test.skipIf(!hasExpress)("lore … | head -c 1 exits 141 with nothing on stderr, as git log does", async () => {
  const home = tempDir("lore-home-");
  const dir = await indexedClone("express", undefined, home);
  const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  // 240 and 340 KB of JSON: far more than a pipe holds, so lore is still writing when head has gone.
  for (const args of [["history", "History.md", "-n", "1000", "--json"], ["blame", "History.md", "--json"]]) {
    const lore = [...loreArgv(), ...args, "--no-daemon"].map(quote).join(" ");
    const r = spawnSync("bash", ["-c", `${lore} 2>"$ERR" | head -c 1 >/dev/null; echo "\${PIPESTATUS[0]}"`], { cwd: dir, encoding: "utf8", env: { ...process.env, LORE_HOME: home, ERR: join(home, "stderr.txt") } });
    expect({ args, status: r.stdout.trim(), stderr: readFileSync(join(home, "stderr.txt"), "utf8") }).toEqual({ args, status: "141", stderr: "" });
  }
  const git = spawnSync("bash", ["-c", `git log --format=%H%n%B | head -c 1 >/dev/null; echo "\${PIPESTATUS[0]}"`], { cwd: dir, encoding: "utf8" });
  expect(git.stdout.trim()).toBe("141");
}, 60_000);

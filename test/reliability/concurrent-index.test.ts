/**
 * Two lore processes that build the same index at once (two `--no-daemon` calls, or one beside
 * the daemon) take turns: the index ends whole and in git's order, never interleaved.
 */
import { beforeAll, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { runGit, tempDir } from "../helpers/git-repo.ts";
import { cloneExpress, hasExpress } from "../helpers/express.ts";
import { gitCommitFiles, gitLogFile } from "../helpers/git-truth.ts";
import { loreCommand } from "../helpers/lore-argv.ts";

let dir = "";

beforeAll(() => {
  if (!hasExpress) return;
  dir = cloneExpress();
});

function lore(home: string, args: string[], extra: Record<string, string> = {}): Promise<{ code: number | null; json: any; stderr: string }> {
  return new Promise((resolve) => {
    const c = loreCommand([...args, "--json", "--no-daemon"]);
    const child = spawn(c.command, c.args, { cwd: dir, env: { ...process.env, LORE_HOME: home, ...extra } });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => resolve({ code, json: out ? JSON.parse(out) : undefined, stderr: err }));
  });
}

test.skipIf(!hasExpress)("two processes indexing one repository at once leave it whole and in git's order", async () => {
  const home = tempDir("lore-home-");
  // Slowed batches keep the first inside its index long enough for the second to start there.
  const slow = { LORE_TEST_BATCH_PAUSE_MS: "500" };
  // Questions whose answers need the whole history, one asked by each.
  const first = lore(home, ["history", "lib/response.js", "-n", "300"], slow);
  // The second starts near the end of the first one's index (status reads the index without
  // updating it): without turns, it would empty what the first wrote just before the first answers.
  for (;;) {
    const s = (await lore(home, ["status"])).json;
    if (s?.indexedHead !== null || s.commitsIndexed >= 5000) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const [a, b] = await Promise.all([first, lore(home, ["history", "lib/router/index.js", "-n", "300"], slow)]);
  expect([a.code, b.code, a.stderr, b.stderr]).toEqual([0, 0, "", ""]);
  expect(a.json.commits.map((c: any) => c.sha)).toEqual(gitLogFile(dir, "HEAD", "lib/response.js", true, 300).map((c) => c.sha));
  expect(b.json.commits.map((c: any) => c.sha)).toEqual(gitLogFile(dir, "HEAD", "lib/router/index.js", true, 300).map((c) => c.sha));

  const status = (await lore(home, ["status"])).json;
  expect(status.commitsIndexed).toBe(Number(runGit(dir, ["rev-list", "--count", "HEAD"]).trim()));
  for (const path of ["lib/router/index.js", "lib/response.js", "Readme.md"]) {
    const r = (await lore(home, ["history", path, "-n", "100"])).json;
    expect({ path, shas: r.commits.map((c: any) => c.sha) }).toEqual({ path, shas: gitLogFile(dir, "HEAD", path, true, 100).map((c) => c.sha) });
  }
  const hot = (await lore(home, ["hotspots", "-n", "1000"])).json;
  const counts = new Map<string, number>();
  for (const c of gitCommitFiles(dir, "HEAD", 500)) for (const f of c.files) counts.set(f, (counts.get(f) ?? 0) + 1);
  for (const x of hot.results) expect({ path: x.path, commits: x.commits }).toEqual({ path: x.path, commits: counts.get(x.path)! });
}, 120_000);

test.skipIf(!hasExpress)("eight processes opening a new index at once all answer, and alike", async () => {
  // Several rounds: the race between them (creating the file, switching it to WAL) is a matter of timing.
  for (let round = 0; round < 4; round++) {
    const home = tempDir("lore-home-");
    const runs = await Promise.all(Array.from({ length: 8 }, () => lore(home, ["history", "lib/router/index.js", "-n", "3"])));
    expect(runs.map((r) => [r.code, r.stderr])).toEqual(Array.from({ length: 8 }, () => [0, ""]));
    const truth = gitLogFile(dir, "HEAD", "lib/router/index.js", true, 3).map((c) => c.sha);
    for (const r of runs) expect(r.json.commits.map((c: any) => c.sha)).toEqual(truth);
  }
}, 120_000);

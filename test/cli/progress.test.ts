/**
 * A person at a terminal who waits on an index sees how far it has got, on one line of stderr
 * that is cleared when the answer comes; a script (no terminal) sees nothing of it. The
 * terminal is a real pseudo-terminal from util-linux `script`.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { progressLine } from "../../src/cli/progress.ts";
import { generateRepo } from "../bench/gen-repo.ts";
import { tempDir } from "../helpers/git-repo.ts";
import { cloneExpress, hasExpress } from "../helpers/express.ts";
import { daemonHome, discardHome, stopDaemons } from "../daemon/daemon-helpers.ts";
import { loreArgv, loreCommand } from "../helpers/lore-argv.ts";

const hasScript = spawnSync("script", ["--version"]).status === 0;
const homes: string[] = [];

afterAll(async () => {
  for (const h of homes) await discardHome(h);
}, 60_000);

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/** `lore ...args` in `cwd` with stdout and stderr on a pseudo-terminal: everything it wrote there, in order. */
function onTerminal(cwd: string, home: string, args: string[], extra: Record<string, string> = {}): { code: number | null; screen: string } {
  const command = [...loreArgv(), ...args].map(quote).join(" ");
  const r = spawnSync("script", ["-qefc", command, "/dev/null"], { cwd, encoding: "utf8", env: { ...process.env, LORE_HOME: home, NO_COLOR: "1", ...extra } });
  return { code: r.status, screen: r.stdout };
}

describe("the progress line", () => {
  test("says what is being waited for", () => {
    expect(progressLine({ state: "indexing", commitsIndexed: 3000 }, "history")).toBe("lore: indexing history, 3000 commits so far…");
    expect(progressLine({ state: "fresh", filesBlamed: 10, filesTotal: 250 }, "blame")).toBe("lore: blaming files, 10 of 250 done…");
    expect(progressLine({ state: "fresh", filesBlamed: 10, filesTotal: 250 }, "history")).toBeUndefined();
    expect(progressLine({ state: "fresh", filesBlamed: 250, filesTotal: 250 }, "blame")).toBeUndefined();
    expect(progressLine({ state: "fresh", filesBlamed: 240, filesUnblamable: 10, filesTotal: 250 }, "blame")).toBeUndefined();
    expect(progressLine(undefined, "blame")).toBeUndefined();
  });

  test.skipIf(!hasScript || !hasExpress)("shows a first index at a terminal, then clears it for the answer; nothing of it without one", async () => {
    const dir = cloneExpress();
    const home = daemonHome();
    homes.push(home);
    // Slowed batches (about 2 s in all) and a question only the whole history answers (history asks git meanwhile).
    const question = ["cochange", "lib/router/index.js", "--commits", "all"];
    const r = onTerminal(dir, home, question, { LORE_TEST_BATCH_PAUSE_MS: "300" });
    expect(r.code).toBe(0);
    expect(r.screen).toMatch(/lore: indexing history, \d+ commits so far…/);
    const answer = r.screen.slice(r.screen.lastIndexOf("\x1b[2K") + 4);
    expect(answer).not.toContain("lore: indexing");
    expect(answer).toContain("lib/");
    // Its pass would go on through churn and blame of all express, on the cores the next question's daemon needs.
    await stopDaemons(home);

    const home2 = daemonHome();
    homes.push(home2);
    const asked = loreCommand(question);
    const plain = spawnSync(asked.command, asked.args, { cwd: dir, encoding: "utf8", env: { ...process.env, LORE_HOME: home2, LORE_TEST_BATCH_PAUSE_MS: "300" } });
    expect(plain.status).toBe(0);
    expect(plain.stderr).toBe("");
    await stopDaemons(home2);
  }, 120_000);

  test.skipIf(!hasScript)("shows the blame of many files while contributors waits for it", async () => {
    const dir = join(tempDir(), "generated");
    await generateRepo({ dir, commits: 1500, files: 400, seed: 3 });
    const home = daemonHome();
    homes.push(home);
    const r = onTerminal(dir, home, ["contributors"]);
    expect(r.code).toBe(0);
    // How far the question itself got, in its own terms (files blamed of files asked).
    expect(r.screen).toMatch(/lore: contributors: blamed \d+ of 400 files…/);
    expect(r.screen.slice(r.screen.lastIndexOf("\x1b[2K") + 4)).toMatch(/lines/);
  }, 120_000);
});

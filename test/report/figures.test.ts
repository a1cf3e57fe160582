/** The report's words: files told apart by as much of their path as it takes, and a long build that says on a terminal what it is doing and waiting for (daemon and in-process). */
import { afterAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { shortLabels } from "../../src/report/page/labels.ts";
import { generateRepo } from "../bench/gen-repo.ts";
import { daemonHome, discardHome } from "../daemon/daemon-helpers.ts";
import { loreArgv, loreCommand } from "../helpers/lore-argv.ts";
import { tempDir } from "../helpers/git-repo.ts";

const hasScript = spawnSync("script", ["--version"]).status === 0;
const homes: string[] = [];

afterAll(async () => {
  for (const h of homes) await discardHome(h);
}, 60_000);

describe("labels in the co-change graph", () => {
  test("a monorepo's six package.json are told apart by the shortest end of their paths; a unique name stays bare", () => {
    const paths = ["package.json", "packages/vite/package.json", "packages/create-vite/package.json", "playground/a/package.json", "playground/b/package.json", "packages/vite/src/node/server/index.ts", "packages/vite/src/client/index.ts", "pnpm-workspace.yaml"];
    const labels = shortLabels(paths);
    expect(Object.fromEntries(labels)).toEqual({
      "package.json": "package.json",
      "packages/vite/package.json": "vite/package.json",
      "packages/create-vite/package.json": "create-vite/package.json",
      "playground/a/package.json": "a/package.json",
      "playground/b/package.json": "b/package.json",
      "packages/vite/src/node/server/index.ts": "server/index.ts",
      "packages/vite/src/client/index.ts": "client/index.ts",
      "pnpm-workspace.yaml": "pnpm-workspace.yaml",
    });
    expect(new Set(labels.values()).size).toBe(paths.length);
    // Each label is the end of its own path.
    for (const [p, l] of labels) expect(p === l || p.endsWith("/" + l)).toBe(true);
  });

  test("files whose paths differ only far up are named from there", () => {
    expect(Object.fromEntries(shortLabels(["a/x/index.ts", "b/x/index.ts", "c/y/index.ts"]))).toEqual({ "a/x/index.ts": "a/x/index.ts", "b/x/index.ts": "b/x/index.ts", "c/y/index.ts": "y/index.ts" });
  });
});

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/** `lore ...args` in `cwd` with stderr on a pseudo-terminal (util-linux script): everything it wrote there. */
function onTerminal(cwd: string, home: string, args: string[]): { code: number | null; screen: string } {
  const command = [...loreArgv(), ...args].map(quote).join(" ");
  const r = spawnSync("script", ["-qefc", command, "/dev/null"], { cwd, encoding: "utf8", env: { ...process.env, LORE_HOME: home, NO_COLOR: "1" } });
  return { code: r.status, screen: r.stdout };
}

describe.skipIf(!hasScript)("a first report on a terminal", () => {
  test("says what it is doing and how far it got, then clears the line for its answer; with the daemon and without", async () => {
    const dir = join(tempDir(), "generated");
    await generateRepo({ dir, commits: 300, files: 120, seed: 5 });
    for (const noDaemon of [false, true]) {
      const home = daemonHome();
      homes.push(home);
      const out = join(home, "r.html");
      const r = onTerminal(dir, home, ["report", "--out", out, ...(noDaemon ? ["--no-daemon"] : [])]);
      expect(r.code).toBe(0);
      expect(r.screen).toMatch(/lore: report: reading each file's history, co-change and authors \(blame\): \d+ of \d+ files…/);
      const answer = r.screen.slice(r.screen.lastIndexOf("\x1b[2K") + 4);
      expect(answer).toStartWith(`wrote ${out}`);
    }
    // Not on a terminal: nothing but the answer.
    const home = daemonHome();
    homes.push(home);
    const report = loreCommand(["report", "--out", join(home, "p.html")]);
    const plain = spawnSync(report.command, report.args, { cwd: dir, encoding: "utf8", env: { ...process.env, LORE_HOME: home } });
    expect(plain.status).toBe(0);
    expect(plain.stderr).toBe("");
  }, 240_000);
});

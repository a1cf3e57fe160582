/** An index an older lore kept under the main checkout's root is moved to the shared place and used as it is. */
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { ALICE, lines, TestRepo, tempDir } from "../helpers/git-repo.ts";
import { loreCommand } from "../helpers/lore-argv.ts";

describe("an index an older lore made", () => {
  test("kept under the main checkout's root, it is moved to the shared place and used as it is, not built again", async () => {
    const r = new TestRepo();
    const lore = tempDir("lore-home-old-");
    try {
      r.write("a.txt", lines(1, 2)).commit("one", ALICE);
      const run = (args: string[]) => {
        const cmd = loreCommand([...args, "--json", "--no-daemon"]);
        return JSON.parse(spawnSync(cmd.command, cmd.args, { cwd: r.dir, env: { ...process.env, LORE_HOME: lore }, encoding: "utf8" }).stdout);
      };
      run(["status"]);
      expect(run(["log"]).commits.length).toBe(1);
      // Put it back where an older lore kept it: under sha256(root), naming the root.
      const repos = join(lore, "repos");
      const [shared] = readdirSync(repos);
      const old = join(repos, createHash("sha256").update(r.dir).digest("hex").slice(0, 16));
      mkdirSync(old, { recursive: true });
      renameSync(join(repos, shared!, "index.db"), join(old, "index.db"));
      const db = new Database(join(old, "index.db"));
      db.prepare("UPDATE meta SET value = ? WHERE key = 'repoRoot'").run(r.dir);
      db.prepare("UPDATE meta SET value = 'kept' WHERE key = 'lastIndexedAt'").run();
      db.close();
      const s = run(["status"]);
      expect([s.state, s.lastIndexedAt, s.rebuilt]).toEqual(["fresh", "kept", undefined]);
      expect(existsSync(join(old, "index.db"))).toBe(false);
      expect(s.dbPath).toBe(join(repos, shared!, "index.db"));
    } finally {
      r.cleanup();
      rmSync(lore, { recursive: true, force: true });
    }
  });
});

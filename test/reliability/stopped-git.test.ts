/**
 * A git that lore itself ends (a deadline given up in a one-process answer, a daemon stopping) is
 * not a damaged repository: the index must not record "history stops after N commits" and keep
 * a short history until HEAD moves.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lines, runGit, tempDir, TestRepo } from "../helpers/git-repo.ts";
import { cli } from "../helpers/lore.ts";

let repo: TestRepo;
let slowBin: string;
const home = tempDir("lore-home-");

beforeAll(() => {
  repo = new TestRepo();
  for (let i = 0; i < 6; i++) {
    repo.write("a.txt", lines(`v${i}`));
    repo.commit(`step ${i}`);
  }
  // A git whose log prints its first commit, then naps: the in-process answer's deadline passes while it runs.
  const real = Bun.which("git")!;
  slowBin = tempDir("slow-git-");
  const script = ["#!/bin/sh", 'for a in "$@"; do case "$a" in', `  log) ${real} "$@" | { head -c 200; sleep 5; cat; }; exit $?;;`, "esac; done", `exec ${real} "$@"`].join("\n");
  writeFileSync(join(slowBin, "git"), script + "\n");
  chmodSync(join(slowBin, "git"), 0o755);
});

afterAll(() => repo.cleanup());

test("a git log lore gives up at a deadline leaves no 'history stops' behind, and the next answer has every commit", () => {
  const slow = cli(repo.dir, ["history", "a.txt", "--deadline", "300ms", "--json"], { LORE_HOME: home, PATH: `${slowBin}:${process.env.PATH}` });
  expect(slow.code).toBe(0);
  expect(slow.json.partial).toBe(true);
  expect(slow.stderr).not.toContain("history stops");

  const status = cli(repo.dir, ["status", "--json"], { LORE_HOME: home });
  expect(status.code).toBe(0);
  expect(JSON.stringify(status.json.leftOut ?? [])).not.toContain("history stops");
  const history = cli(repo.dir, ["history", "a.txt", "--json"], { LORE_HOME: home });
  const shas: string[] = history.json.commits.map((c: { sha: string }) => c.sha);
  expect(shas).toEqual(runGit(repo.dir, ["log", "--format=%H", "--", "a.txt"]).trim().split("\n").map((sha) => sha.slice(0, shas[0]!.length)));
}, 60_000);

/**
 * A first blame past its deadline: with a stand-in git whose blame --incremental is slow, blame and
 * intent answer at the deadline with the range's first hunks and how far git got, and continue gives the rest.
 */
import { afterAll, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lines, tempDir, TestRepo } from "../helpers/git-repo.ts";
import { daemonHome, discardHome, lore } from "./daemon-helpers.ts";

const homes: string[] = [];

afterAll(async () => {
  await Promise.all(homes.map(discardHome));
}, 60_000);

function home(): string {
  const h = daemonHome();
  homes.push(h);
  return h;
}

/** A git whose blame --incremental passes each group on a nap after the last (the real git's output, slowed). */
function slowBlameGit(seconds: number): string {
  const real = Bun.which("git")!;
  const dir = tempDir("slow-blame-git-");
  writeFileSync(
    join(dir, "git"),
    `#!/bin/sh\ncase " $* " in *" --incremental "*) ${real} "$@" | while IFS= read -r l; do printf '%s\\n' "$l"; case "$l" in filename*) sleep ${seconds};; esac; done; exit 0;; esac\nexec ${real} "$@"\n`,
  );
  chmodSync(join(dir, "git"), 0o755);
  return dir;
}

test("a first blame past its deadline answers with the range's first hunks and how many lines git has, and continue gives the rest; intent says how far it got", async () => {
  // Twelve lines, each last changed by its own commit, the newest at the top: git attributes them top down.
  const r = new TestRepo();
  const text = (k: number) => lines(...Array.from({ length: 12 }, (_, i) => `line ${i + 1}${i + 1 >= k ? " changed" : ""}`));
  r.write("f.txt", text(13)).write("g.txt", text(13)).write("h.txt", text(13)).commit("start");
  // Even lines' commits credit Claude: a part's agents count only the lines it sends.
  for (let k = 12; k >= 1; k--) r.write("f.txt", text(k)).write("g.txt", text(k)).write("h.txt", text(k)).commit(`change line ${k}${k % 2 ? "" : "\n\nCo-authored-by: Claude <noreply@anthropic.com>"}`);
  // h.txt edited on disk: its blame maps HEAD's, which git attributes as slowly.
  r.write("h.txt", "a new first line\n" + text(1));
  const slow = { PATH: `${slowBlameGit(0.25)}:${process.env.PATH}` };
  const h = home();
  try {
    expect((await lore(h, r.dir, ["status", "--json"], slow)).code).toBe(0);
    // Each asked at once, before the background pass (as slow) can have blamed the file.
    const intent = (args: string[]) => lore(h, r.dir, ["intent", "g.txt", "-L", "2,11", "--json", ...args], slow);
    const blame = (args: string[]) => lore(h, r.dir, ["blame", "f.txt", "-L", "2,11", "--json", ...args], slow);
    const edited = () => lore(h, r.dir, ["blame", "h.txt", "--json", "--deadline", "1000ms"], slow);
    const [why, first, dirty] = await Promise.all([intent(["--deadline", "1000ms"]), blame(["--deadline", "1000ms"]), edited()]);
    // The file on disk: how many of HEAD's lines git has attributed.
    expect([dirty.json.partial, dirty.json.progress.of]).toEqual([true, 12]);
    expect(dirty.json.progress.lines).toBeLessThan(12);
    // intent walks the blame too, and says how far git got (its commits are sorted only at the end).
    expect(why.json.partial).toBe(true);
    expect(why.json.progress.of).toBe(10);
    expect(why.json.progress.lines).toBeLessThan(10);
    expect(first.code).toBe(0);
    expect(first.json.partial).toBe(true);
    expect(first.json.progress.of).toBe(10);
    expect(first.json.progress.lines).toBeLessThan(10);
    expect(first.json.hunks.length).toBeGreaterThan(0);
    expect(first.json.hunks.length).toBeLessThanOrEqual(first.json.progress.lines);
    // Each hunk sent names its commit, as git blame does.
    const perLine = r.git("blame", "--porcelain", "-L", "2,11", "HEAD", "--", "f.txt").split("\n").filter((l) => /^[0-9a-f]{40} /.test(l)).map((l) => l.slice(0, 12));
    for (const [s, e, sha] of first.json.hunks) for (let n = s; n <= e; n++) expect(sha).toBe(perLine[n - 2]);
    for (const [, , sha] of first.json.hunks) expect(first.json.commits[sha]?.[2]).toMatch(/^change line/);
    const rest = await blame(["--continue", first.json.continue]);
    expect(rest.code).toBe(0);
    expect(rest.json.after).toBe(first.json.hunks.length);
    const whole = (await blame([])).json;
    // Claude's lines of each part, as git log's trailers and git blame say them (line 2's commit is Claude's: the first part has some).
    const claude = new Set(r.git("log", "--grep=Co-authored-by: Claude", "--format=%h", "--abbrev=12").split("\n").filter(Boolean));
    const claudeLines = (hunks: [number, number, string][]) => hunks.reduce((n, [s, e]) => n + [...Array(e - s + 1).keys()].filter((i) => claude.has(perLine[s + i - 2]!)).length, 0);
    expect(first.json.agents.claude.lines).toBeGreaterThan(0);
    for (const part of [first.json, rest.json, whole]) expect(part.agents?.claude.lines ?? 0).toBe(claudeLines(part.hunks));
    expect(first.json.agents.claude.lines + (rest.json.agents?.claude.lines ?? 0)).toBe(5);
    expect([...first.json.hunks, ...rest.json.hunks]).toEqual(whole.hunks);
    expect(whole.hunks.flatMap(([s, e, sha]: [number, number, string]) => Array.from({ length: e - s + 1 }, () => sha))).toEqual(perLine);
    expect([first.json.lines, first.json.range]).toEqual([whole.lines, whole.range]);
    const all = (await intent([])).json;
    expect(all.commits.map((c: any) => c.lines)).toEqual(perLine.map((_, i) => [[i + 2, i + 2]]));
  } finally {
    r.cleanup();
  }
}, 60_000);

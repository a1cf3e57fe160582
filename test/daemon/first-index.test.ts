/**
 * A first index of a long history: questions the newest commits already answer (a window of
 * recent commits, the changes of a busy file) come back before the index ends, and equal the
 * answers given once it has ended. Batches are slowed down (LORE_TEST_BATCH_PAUSE_MS) so the
 * index is seen mid-way on any machine.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { gitLogFile, historyAsLog } from "../helpers/git-truth.ts";
import { runGit } from "../helpers/git-repo.ts";
import { cloneExpress, hasExpress } from "../helpers/express.ts";
import { askDuringIndex as askDuringIndexOf, daemonHome, discardHome, lore } from "./daemon-helpers.ts";

/**
 * express has 6,158 commits: seven batches of 1,000, so at least 17 s with this pause after each. The
 * twenty processes the early questions start must all have answered by then, on a machine that runs
 * another test file beside this one (at 1.2 s a batch, some came after the end at load 7). The pause
 * is a sleep: it costs this file wall time, not CPU.
 */
const SLOW = { LORE_TEST_BATCH_PAUSE_MS: "2500" };
let dir = "";
let home = "";

beforeAll(() => {
  if (!hasExpress) return;
  dir = cloneExpress();
  home = daemonHome();
});

afterAll(async () => {
  if (home) await discardHome(home);
}, 60_000);

const askDuringIndex = (args: string[]) => askDuringIndexOf(home, dir, args, SLOW);

test.skipIf(!hasExpress)(
  "questions the newest commits answer come back before a first index ends, equal to the answers after it",
  async () => {
    const early = {
      hotspots: askDuringIndex(["hotspots", "-n", "15"]),
      cochange: askDuringIndex(["cochange", "lib/response.js", "-n", "15"]),
      history: askDuringIndex(["history", "lib/response.js", "-n", "5"]),
      intent: askDuringIndex(["intent", "lib/response.js", "-L", "100,110"]),
      // LICENSE changed 5 times in 6,158 commits: the newest ones do not settle it, git's own --follow walk does.
      rare: askDuringIndex(["history", "LICENSE"]),
      // --no-follow is git log -- PATH's walk, index or not.
      noFollow: askDuringIndex(["history", "lib/router/index.js", "-n", "3", "--no-follow"]),
      // Another commit's history: the newest commits of HEAD's say nothing about it.
      older: askDuringIndex(["history", "lib/response.js", "-n", "5", "--until", "HEAD~300"]),
      // git alone answers code search and line history; message search waits for every message.
      code: askDuringIndex(["search", "--code", "etag", "-n", "3"]),
      lines: askDuringIndex(["history", "lib/response.js", "-L", "126,140"]),
      words: askDuringIndex(["search", "deprecate req"]),
    };
    const got = Object.fromEntries(await Promise.all(Object.entries(early).map(async ([k, p]) => [k, await p] as const)));
    for (const k of ["hotspots", "cochange", "history", "intent", "rare", "noFollow", "code", "lines"]) expect({ k, indexing: got[k]!.indexing }).toEqual({ k, indexing: true });

    // Once the index has ended, the same questions give the same answers.
    const after = async (args: string[]) => (await lore(home, dir, [...args, "--json"], SLOW)).json;
    while ((await after(["status"])).indexedHead === null) await new Promise((r) => setTimeout(r, 200));
    expect(await after(["hotspots", "-n", "15"])).toEqual(got.hotspots!.json);
    expect(await after(["cochange", "lib/response.js", "-n", "15"])).toEqual(got.cochange!.json);
    expect(await after(["history", "lib/response.js", "-n", "5"])).toEqual(got.history!.json);
    expect(await after(["intent", "lib/response.js", "-L", "100,110"])).toEqual(got.intent!.json);
    expect(await after(["search", "--code", "etag", "-n", "3"])).toEqual(got.code!.json);
    expect(await after(["history", "lib/response.js", "-L", "126,140"])).toEqual(got.lines!.json);
    expect(await after(["search", "deprecate req"])).toEqual(got.words!.json);
    expect(got.words!.json.total).toBeGreaterThan(0);
    const status = await after(["status"]);
    expect(status.state).toBe("fresh");
    expect(status.commitsIndexed).toBe(Number(runGit(dir, ["rev-list", "--count", "HEAD"]).trim()));

    // Every early history is git log --follow's, field for field; what waited is git's too.
    const fields = historyAsLog;
    expect(fields(got.rare!.json)).toEqual(gitLogFile(dir, "HEAD", "LICENSE"));
    expect(fields(got.history!.json)).toEqual(gitLogFile(dir, "HEAD", "lib/response.js", true, 5));
    expect(await after(["history", "LICENSE"])).toEqual(got.rare!.json);
    expect(fields(got.noFollow!.json)).toEqual(gitLogFile(dir, "HEAD", "lib/router/index.js", false, 3).map((e) => ({ ...e, status: e.status || "M" })));
    expect(await after(["history", "lib/router/index.js", "-n", "3", "--no-follow"])).toEqual(got.noFollow!.json);
    expect(got.history!.json.commits.map((c: any) => c.sha)).toEqual(gitLogFile(dir, "HEAD", "lib/response.js", true, 5).map((c) => c.sha));
    expect(got.older!.json.commits.map((c: any) => c.sha)).toEqual(gitLogFile(dir, "HEAD~300", "lib/response.js", true, 5).map((c) => c.sha));
  },
  120_000,
);

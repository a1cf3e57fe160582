/**
 * log and show during a first index of a long history: the newest commits already answer
 * `log -n 20` (and a busy folder's), show needs no index at all; each early answer equals the
 * answer once the index has ended, but for a change request inherited from a merge, which waits for
 * the end. Batches are slowed down so the index is seen mid-way.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cloneExpress, hasExpress } from "../helpers/express.ts";
import { runGit } from "../helpers/git-repo.ts";
import { ownPr } from "../../src/index/pr-number.ts";
import { askDuringIndex as askDuringIndexOf, daemonHome, discardHome, lore } from "./daemon-helpers.ts";

const SLOW = { LORE_TEST_BATCH_PAUSE_MS: "1200" };
let dir = "";
let home = "";

beforeAll(() => {
  if (!hasExpress) return;
  dir = cloneExpress();
  home = daemonHome();
}, 120_000);

afterAll(async () => {
  if (home) await discardHome(home);
}, 60_000);

const askDuringIndex = (args: string[]) => askDuringIndexOf(home, dir, args, SLOW);

type Commit = { sha: string; pr?: number };

/**
 * The answer after the index, without the numbers a merge gave (docs/questions.md: an early answer
 * carries a commit's own number only) where the early answer lacks them: each such number must be
 * inherited, its commit's own message (from git) naming none.
 */
function ownPrOnly(later: any, early: any): any {
  const earlyPr = new Map<string, number | undefined>(((early.commits ?? [early]) as Commit[]).map((c) => [c.sha, c.pr]));
  const copy = structuredClone(later);
  for (const c of (copy.commits ?? [copy]) as Commit[]) {
    if (c.pr === undefined || earlyPr.get(c.sha) !== undefined) continue;
    const text = runGit(dir, ["log", "-1", "--format=%s%n%b", c.sha]);
    expect({ sha: c.sha, own: ownPr(text.split("\n")[0]!, text) }).toEqual({ sha: c.sha, own: undefined });
    delete c.pr;
  }
  return copy;
}

test.skipIf(!hasExpress)(
  "log -n 20 and show come back before a first index ends, equal to the answers after it",
  async () => {
    const [log, logLib, show] = await Promise.all([askDuringIndex(["log", "-n", "20"]), askDuringIndex(["log", "-n", "20", "lib"]), askDuringIndex(["show", "HEAD~3"])]);
    expect({ log: log.indexing, show: show.indexing }).toEqual({ log: true, show: true });
    const after = async (args: string[]) => (await lore(home, dir, [...args, "--json"], SLOW)).json;
    // The history index ends (the background pass may go on).
    while ((await after(["status"])).indexedHead === null) await new Promise((r) => setTimeout(r, 200));
    expect(ownPrOnly(await after(["log", "-n", "20"]), log.json)).toEqual(log.json);
    expect(ownPrOnly(await after(["log", "-n", "20", "lib"]), logLib.json)).toEqual(logLib.json);
    expect(ownPrOnly(await after(["show", "HEAD~3"]), show.json)).toEqual(show.json);
  },
  120_000,
);

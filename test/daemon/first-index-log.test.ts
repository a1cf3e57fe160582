/**
 * log and show during a first index of a long history: the newest commits already answer
 * `log -n 20` (and a busy folder's), show needs no index at all; each early answer equals the
 * answer once the index has ended. Batches are slowed down so the index is seen mid-way.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cloneExpress, hasExpress } from "../helpers/express.ts";
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

test.skipIf(!hasExpress)(
  "log -n 20 and show come back before a first index ends, equal to the answers after it",
  async () => {
    const [log, logLib, show] = await Promise.all([askDuringIndex(["log", "-n", "20"]), askDuringIndex(["log", "-n", "20", "lib"]), askDuringIndex(["show", "HEAD~3"])]);
    expect({ log: log.indexing, show: show.indexing }).toEqual({ log: true, show: true });
    const after = async (args: string[]) => (await lore(home, dir, [...args, "--json"], SLOW)).json;
    // The history index ends (the background pass may go on).
    while ((await after(["status"])).indexedHead === null) await new Promise((r) => setTimeout(r, 200));
    expect(await after(["log", "-n", "20"])).toEqual(log.json);
    expect(await after(["log", "-n", "20", "lib"])).toEqual(logLib.json);
    expect(await after(["show", "HEAD~3"])).toEqual(show.json);
  },
  120_000,
);

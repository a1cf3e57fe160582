/** Which messages say they fixed something, on real messages from express's and hono's histories (copied here so the test needs no corpus). */
import { expect, test } from "bun:test";
import { saysFix } from "../../src/queries/run/review-fixes.ts";

const FIXES = [
  "fix(res.send): add Content-Length header only if Transfer-Encoding is not present (#4893)",
  "fix: bump qs minimum to ^6.14.2 for CVE-2026-2391 (#7057)",
  'Revert "sec: security patch for CVE-2024-51999"',
  "fixed typo in history.md (#7191)",
  "fix(types): fix 4.9.8 regression (#4448)",
  "fix(context): Fix #4427 type regression by removing non-public export JSONRespondReturn (#4433)",
  "Fix res.redirect('toString') when the URL is empty\n\nfixes #1826: res.redirect('toString') fails with 500",
  "Use setImmediate instead of process.nextTick\n\ncloses #3310",
  "sec: security patch for CVE-2024-51999",
  'chore: Revert "ci: Add Bundle Analysis (#4072)" (#4076)',
  "deps: send@0.16.2\n\n  * Fix incorrect end tag in default error & redirects",
];

const NOT_FIXES = [
  "deps: qs@^6.14.1",
  "Add debug message when loading view engine",
  'Added "debug" dependency',
  "Added PREFIX to makefile",
  "feat(bearer-auth): Allow empty bearer-auth middleware prefixes (#3161)",
  "feat(cookie): add secure and host prefix support (#2269)",
  "Added Request#isXHR. Closes #229",
  "tests: remove unused image fixture",
  "Removed \"_\" prefix from partials",
  "Error message now describes where the view was not able to be found. Useful for debugging.",
];

test("a fix, a bug, a regression, a revert, a workaround, security, a CVE, or a Fixes/Closes #N line says fix", () => {
  expect(FIXES.filter((m) => !saysFix(m))).toEqual([]);
});

test("words that only contain fix or bug (prefix, debug, fixtures) and a Closes #N inside a sentence do not", () => {
  expect(NOT_FIXES.filter(saysFix)).toEqual([]);
});

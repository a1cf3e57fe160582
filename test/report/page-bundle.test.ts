/** The page script checked in (src/report/page-bundle.ts) is the one src/report/page/ builds to. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { BUNDLE_FILE, pageBundleModule } from "../../build/report-page.ts";

test("the checked-in report page bundle is up to date (else run: npx bun build/report-page.ts)", async () => {
  expect(readFileSync(BUNDLE_FILE, "utf8")).toBe(await pageBundleModule());
});

test("the page bundle is small and fetches nothing", () => {
  const js = readFileSync(BUNDLE_FILE, "utf8");
  expect(js.length).toBeLessThan(80_000);
  expect(js).not.toMatch(/\bfetch\(|XMLHttpRequest|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
});

/**
 * The report in a real browser (headless Chromium): the written file and the page the daemon
 * serves, on a repository whose shape the test knows. Skipped only where no Chromium is
 * installed, and then failed under CI=true (.ci/run installs it).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { discardHome, daemonHome, lore } from "../daemon/daemon-helpers.ts";
import { cloneExpress, hasExpress } from "../helpers/express.ts";
import { TestRepo } from "../helpers/git-repo.ts";
import { type BrowserContext, findChromium, openBrowser, type Page } from "./browser.ts";
import { FILE_LINES, reportRepo } from "./fixture.ts";

/** Where the test leaves what it made (screenshots), for a person to look at. */
export const OUT = process.env.LORE_TEST_OUT ?? join(import.meta.dir, "..", ".out", "report");

const chromium = findChromium();
if (!chromium) {
  if (process.env.CI === "true") throw new Error("No Chromium to test the report in (CI=true): .ci/run installs Debian's chromium; set LORE_CHROMIUM to another one.");
  console.warn("report-browser.test.ts: skipped, no Chromium here (apt-get install chromium, or set LORE_CHROMIUM)");
}

let repo: TestRepo;
let home: string;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let context: BrowserContext;
let file: string;
let url: string;

beforeAll(async () => {
  if (!chromium) return;
  mkdirSync(OUT, { recursive: true });
  home = daemonHome();
  repo = reportRepo();
  file = join(home, "report.html");
  const written = await lore(home, repo.dir, ["report", "--out", file, "--json"]);
  expect(written.stderr).toBe("");
  expect(written.json.out).toBe(file);
  const served = await lore(home, repo.dir, ["report", "--json"]);
  expect(served.code).toBe(0);
  url = served.json.url;
  browser = await openBrowser(chromium);
  context = browser.context;
});

afterAll(async () => {
  await browser?.close();
  if (home) await discardHome(home);
});

/** Opens `where` and waits until the page says it has drawn; the console errors it logged come with it. */
async function open(where: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
  page.on("pageerror", (e) => void errors.push(String(e)));
  page.on("requestfailed", (r) => void errors.push(`request failed: ${r.url()}`));
  await page.goto(where);
  await page.waitForSelector("body[data-ready]", { timeout: 10_000 });
  return { page, errors };
}

async function checkPage(where: string, shot: string): Promise<void> {
  const { page, errors } = await open(where);
  // One cell per file with lines (the binary logo.bin has none), each saying its lines.
  const cells = await page.$$eval(".cell", (els) => els.map((e) => ({ path: e.getAttribute("data-path")!, lines: Number(e.getAttribute("data-lines")), area: e.getBoundingClientRect().width * e.getBoundingClientRect().height })));
  expect(Object.fromEntries(cells.map((c) => [c.path, c.lines]))).toEqual(FILE_LINES);
  expect(cells.length).toBe(Object.keys(FILE_LINES).length);
  const largest = cells.reduce((a, b) => (b.area > a.area ? b : a));
  expect(largest.path).toBe("big/data.txt");

  // Clicking a cell shows its co-change partners: the list lore cochange gives.
  await page.click('.cell[data-path="src/app.ts"]');
  const shown = await page.$$eval("#cochange li", (els) => els.map((e) => ({ path: e.getAttribute("data-path"), count: Number(e.getAttribute("data-count")) })));
  const cochange = await lore(home, repo.dir, ["cochange", "src/app.ts", "--json"]);
  expect(shown).toEqual(cochange.json.results.map((r: { path: string; count: number }) => ({ path: r.path, count: r.count })));
  expect(shown.length).toBeGreaterThan(0);
  expect(await page.$$eval("#history li", (els) => els.length)).toBe(4);

  // The keyboard reaches a cell and Enter selects it.
  await page.locator("body").focus();
  let focused: string | null = null;
  for (let i = 0; i < 20 && !focused; i++) {
    await page.keyboard.press("Tab");
    focused = await page.evaluate(() => (document.activeElement?.classList.contains("cell") ? document.activeElement.getAttribute("data-path") : null));
  }
  expect(focused).not.toBeNull();
  // Tab comes into the map at the cell selected last; arrows move within it (big/data.txt fills the top, src/ sits below).
  expect(focused).toBe("src/app.ts");
  const active = () => page.evaluate(() => document.activeElement?.getAttribute("data-path") ?? null);
  await page.keyboard.press("ArrowUp");
  expect(await active()).toBe("big/data.txt");
  await page.keyboard.press("ArrowDown");
  const below = await active();
  expect(below).toMatch(/^src\//);
  await page.keyboard.press("Enter");
  expect(await page.getAttribute("#selected", "data-path")).toBe(below);
  expect(await page.textContent("#tip")).toContain(`${below}:`);
  // One Tab leaves the map for the panel beside it: the first file listed as changing with it.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.closest("#cochange") !== null)).toBe(true);

  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  await page.screenshot({ path: join(OUT, shot), fullPage: true });
  expect(readFileSync(join(OUT, shot)).subarray(1, 4).toString()).toBe("PNG");
  expect(errors).toEqual([]);
  await page.close();
}

describe.skipIf(!chromium)("lore report in headless Chromium", () => {
  test("the written file draws one cell per file, the largest largest, and a click shows lore cochange's list", async () => {
    await checkPage(`file://${file}`, "report-file.png");
  });

  test("the page the daemon serves does the same", async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
    await checkPage(url, "report-served.png");
  });

  test("a request without the token, or with another, gets 403 and no report", async () => {
    const bare = url.replace(/\?token=.*$/, "");
    for (const where of [bare, `${bare}?token=nope`, `${url}x`, `${bare}report.html`]) {
      const res = await fetch(where);
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain("lore-data");
    }
    expect((await fetch(url)).status).toBe(200);
  });
});

describe.skipIf(!chromium)("the report's figures in headless Chromium", () => {
  test("the graph names a monorepo's package.json files apart, and the activity says it counts only the files drawn", async () => {
    const mono = new TestRepo();
    try {
      for (let i = 0; i < 3; i++) {
        for (const p of ["package.json", "packages/a/package.json", "packages/b/package.json"]) mono.write(p, `{"v":${i}}\n`);
        mono.write("packages/a/src/index.ts", `${i}\n`).commit(`release ${i}`);
      }
      const out = join(home, "mono.html");
      expect((await lore(home, mono.dir, ["report", "--out", out])).code).toBe(0);
      const { page, errors } = await open(`file://${out}`);
      const labels = await page.$$eval("#graph svg g.node text", (els) => els.map((e) => e.textContent));
      expect(labels.sort()).toEqual(["a/package.json", "b/package.json", "index.ts", "package.json"]);
      const pairs = await page.textContent("#graph p");
      expect(pairs).toContain("a/package.json + b/package.json (3)");
      const activity = await page.textContent("#activity p");
      expect(activity).toContain("3 commits changed the 4 files drawn above");
      expect(activity).toContain("not the repository's total");
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      mono.cleanup();
    }
  });
});

/** The README's picture: express, a file selected, at 1280×800. Run with LORE_README_SCREENSHOT=1 to remake docs/report.png. */
const readmeShot = process.env.LORE_README_SCREENSHOT === "1";
describe.skipIf(!chromium || !readmeShot || !hasExpress)("the README's screenshot", () => {
  test("of express, lib/response.js selected", async () => {
    const express = cloneExpress(join(home, "express"));
    const out = join(home, "express.html");
    const r = await lore(home, express, ["report", "--out", out]);
    expect(r.code).toBe(0);
    const { page, errors } = await open(`file://${out}`);
    await page.click('.cell[data-path="lib/response.js"]');
    await page.hover('.cell[data-path="lib/response.js"]');
    const png = join(import.meta.dir, "..", "..", "docs", "report.png");
    mkdirSync(dirname(png), { recursive: true });
    await page.screenshot({ path: png });
    expect(errors).toEqual([]);
    // Fine at 1280×800: nothing runs off to the side.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  }, 300_000);
});

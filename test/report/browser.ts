/** Headless Chromium for the report tests and benchmark: Debian's chromium (or another Chrome) driven by playwright-core. */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importPlaywright } from "../helpers/test-clients.ts";

/** The part of playwright-core's API the tests use: it is installed on first use (test/clients), so its own types are not at hand for tsc. */
export interface Page {
  on(event: "console" | "pageerror" | "requestfailed", fn: (e: any) => void): void;
  goto(url: string): Promise<unknown>;
  waitForSelector(selector: string, options?: { timeout?: number }): Promise<unknown>;
  $$eval<T>(selector: string, fn: (elements: any[]) => T): Promise<T>;
  click(selector: string): Promise<void>;
  hover(selector: string): Promise<void>;
  locator(selector: string): { focus(): Promise<void> };
  keyboard: { press(key: string): Promise<void> };
  evaluate<T>(fn: () => T | Promise<T>): Promise<T>;
  getAttribute(selector: string, name: string): Promise<string | null>;
  textContent(selector: string): Promise<string | null>;
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
  close(): Promise<void>;
}

export interface BrowserContext {
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"];

/** The browser to drive: LORE_CHROMIUM, else the first one installed. */
export function findChromium(): string | undefined {
  const given = process.env.LORE_CHROMIUM;
  if (given) return existsSync(given) ? given : undefined;
  return CANDIDATES.find((p) => existsSync(p));
}

export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** A fresh browser with a profile of its own at 1280×800; close() removes the profile. */
export async function openBrowser(executablePath: string): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const { chromium } = await importPlaywright();
  const profile = mkdtempSync(join(tmpdir(), "lore-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 800 } });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

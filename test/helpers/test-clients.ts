/**
 * The programs some tests drive but the project does not need (four agent CLIs, 1.3 GB, and
 * playwright-core): installed on first use into test/clients from its own lockfile, so a
 * contributor's `npm ci` brings only what building and most tests need.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sleepSync } from "../../src/sleep-sync.ts";

const DIR = join(import.meta.dir, "..", "clients");
const STAMP = join(DIR, "node_modules", ".lore-installed");
const LOCK = join(DIR, ".installing");

/** The lockfile's hash: an install is current when its stamp holds it. */
function wanted(): string {
  return createHash("sha256").update(readFileSync(join(DIR, "package-lock.json"))).digest("hex");
}

function current(): boolean {
  return existsSync(STAMP) && readFileSync(STAMP, "utf8") === wanted();
}

/** Installs test/clients once (npm ci, from its lockfile); another process installing waits for it. */
export function installTestClients(): void {
  if (current()) return;
  for (let waited = 0; ; waited += 500) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (waited > 10 * 60_000) rmSync(LOCK, { recursive: true, force: true });
      sleepSync(500);
      if (current()) return;
    }
  }
  try {
    if (current()) return;
    console.warn("lore tests: installing the agent CLIs and playwright-core into test/clients (first use; npm ci from its own lockfile)");
    const r = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: DIR, encoding: "utf8", timeout: 15 * 60_000 });
    if (r.status !== 0) throw new Error(`npm ci in ${DIR} failed (${r.status ?? r.signal}): ${(r.stderr || r.error?.message || "").trim().slice(-2000)}`);
    writeFileSync(STAMP, wanted());
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** The folder with the pinned clients' commands (claude, codex, gemini, opencode), installed if need be. */
export function testClientsBin(): string {
  installTestClients();
  return join(DIR, "node_modules", ".bin");
}

/** playwright-core, installed if need be. */
export async function importPlaywright(): Promise<any> {
  installTestClients();
  return import(join(DIR, "node_modules", "playwright-core", "index.mjs"));
}

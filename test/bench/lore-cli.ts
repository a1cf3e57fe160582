/** Which lore the benchmarks run — the compiled dist/lore when there is one, else `bun src/main.ts` — and the environment it runs in. */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { mustRun } from "./timing.ts";

export const ROOT = resolve(import.meta.dir, "../..");
const DIST = join(ROOT, "dist/lore");

export interface LoreCli {
  argv: string[];
  /** For the tables: "dist/lore" or "bun src/main.ts". */
  label: string;
  /** What happened choosing it, for the notes ("built dist/lore", "dist/lore is older than src/"). */
  remarks: string[];
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function build(): void {
  const r = spawnSync("bun", ["run", "build"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  if (r.status !== 0) throw new Error("npm run build failed; fix the build or run the benchmarks with --source");
}

/**
 * `mode`: "auto" uses dist/lore, building it when missing; "build" rebuilds it first;
 * "source" runs `bun src/main.ts`.
 */
export function chooseLore(mode: "auto" | "build" | "source"): LoreCli {
  const source: LoreCli = { argv: [process.execPath, join(ROOT, "src/main.ts")], label: "bun src/main.ts", remarks: [] };
  if (mode === "source") return source;
  const remarks: string[] = [];
  if (mode === "build" || !existsSync(DIST)) {
    const why = existsSync(DIST) ? "rebuilt dist/lore (--build)" : "dist/lore was missing: built it with npm run build";
    process.stderr.write(`${why}\n`);
    build();
    remarks.push(why);
  } else if (statSync(DIST).mtimeMs < newestSource(join(ROOT, "src"))) {
    remarks.push("dist/lore is older than src/ (pass --build to rebuild it first)");
  }
  return { argv: [DIST], label: "dist/lore", remarks };
}

/** The environment of every lore and git process of a run: lore's state in `home`, git untouched otherwise. */
export function benchEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "LORE_NO_DAEMON" && k !== "LORE_DEBUG") env[k] = v;
  return { ...env, LORE_HOME: home, LORE_IDLE_TIMEOUT: "900", NO_COLOR: "1" };
}

/** What `lore status --json` says, the fields the benchmarks read. */
export interface LoreStatus {
  indexedHead: string | null;
  daemon: { pid: number } | null;
  dbPath: string;
  churnComplete: boolean;
  filesBlamed: number;
  filesUnblamable: number;
  filesTotal: number;
}

/** `lore status --json` of `repo` through the CLI. */
export async function loreStatus(cli: LoreCli, repo: string, env: Record<string, string>): Promise<LoreStatus> {
  return JSON.parse(Buffer.from((await mustRun([...cli.argv, "status", "--json"], { cwd: repo, env })).stdout).toString());
}

/** Whether the background pass has blamed every file it can and filled the line counts. */
export function passOver(s: LoreStatus): boolean {
  return s.churnComplete && s.filesBlamed + s.filesUnblamable >= s.filesTotal;
}

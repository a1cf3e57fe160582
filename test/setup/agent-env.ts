/**
 * A private HOME for setup tests with only the chosen clients on the PATH: the pinned codex,
 * gemini, opencode and claude from test/clients (installed on first use), nothing of the machine's own, and the
 * variables that keep them offline and quiet (no update checks, no telemetry, no trust prompt).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { loreCommand } from "../helpers/lore-argv.ts";
import { testClientsBin } from "../helpers/test-clients.ts";

export type ClientBin = "claude" | "codex" | "gemini" | "opencode";

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The machine's PATH without node_modules/.bin (npm test puts it first): a client is on the test's PATH only when the test puts it there. */
export function machinePath(): string {
  return (process.env.PATH ?? "")
    .split(delimiter)
    .filter((d) => d && !d.endsWith(join("node_modules", ".bin")))
    .join(delimiter);
}

/** Variables of the real user's clients that must not leak into a test, by prefix. */
const LEAKS = ["CLAUDE", "LORE_", "CODEX_", "OPENAI", "GEMINI", "GOOGLE_", "OPENCODE", "ANTHROPIC", "XDG_", "APPDATA"];

export function offlineEnv(home: string, bin: string, loreHome: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !LEAKS.some((p) => k.startsWith(p))) env[k] = v;
  return {
    ...env,
    HOME: home,
    LORE_HOME: loreHome,
    LORE_NO_DAEMON: "1",
    NO_COLOR: "1",
    PATH: `${bin}${delimiter}${machinePath()}`,
    // Gemini CLI: a private HOME has no trusted folders, and it suppresses every MCP server in an untrusted one.
    GEMINI_CLI_TRUST_WORKSPACE: "true",
    GEMINI_CLI_NO_RELAUNCH: "true",
    // opencode: no self-update, no model list, no plugin install from npm, no LSP downloads.
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_PURE: "1",
  };
}

export class AgentHome {
  readonly dir = realpathSync(mkdtempSync(join(tmpdir(), "lore-agents-")));
  readonly home = join(this.dir, "home");
  readonly bin = join(this.dir, "bin");
  readonly loreHome = join(this.dir, "lore");

  constructor(clients: ClientBin[]) {
    for (const d of [this.home, this.bin, this.loreHome]) mkdirSync(d, { recursive: true });
    for (const c of clients) {
      const real = join(testClientsBin(), c);
      if (!existsSync(real)) throw new Error(`${real} is missing: test/clients/package.json should pin it`);
      symlinkSync(real, join(this.bin, c));
    }
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return { ...offlineEnv(this.home, this.bin, this.loreHome), ...extra };
  }

  lore(args: string[], extra: Record<string, string> = {}, timeout = 100_000): Run {
    const cmd = loreCommand(args);
    const r = spawnSync(cmd.command, cmd.args, { cwd: this.dir, env: this.env(extra), encoding: "utf8", timeout });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  }

  /** A client's own command, run in the test's folder. */
  run(client: ClientBin, args: string[], timeout = 60_000): Run {
    const r = spawnSync(join(this.bin, client), args, { cwd: this.dir, env: this.env(), encoding: "utf8", timeout });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  }

  /** Each file's bytes, or null where there is none. */
  snapshot(files: string[]): Map<string, string | null> {
    return new Map(files.map((f) => [f, existsSync(f) ? readFileSync(f, "latin1") : null]));
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

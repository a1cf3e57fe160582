/** A throwaway Claude Code home for setup tests: temp HOME and CLAUDE_CONFIG_DIR, the pinned claude CLI (test/clients) on the PATH. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loreCommand } from "../helpers/lore-argv.ts";
import { testClientsBin } from "../helpers/test-clients.ts";
import { machinePath } from "./agent-env.ts";

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export class ClaudeHome {
  readonly dir = realpathSync(mkdtempSync(join(tmpdir(), "lore-claude-")));
  readonly home = join(this.dir, "home");
  readonly config = join(this.dir, "claude");
  readonly loreHome = join(this.dir, "lore");
  /** Only claude: the other clients in node_modules/.bin would be found and set up too. */
  readonly bin = join(this.dir, "bin");

  constructor() {
    for (const d of [this.home, this.config, this.loreHome, this.bin]) mkdirSync(d, { recursive: true });
    const claude = join(testClientsBin(), "claude");
    if (!existsSync(claude)) throw new Error(`${claude} is missing: test/clients/package.json should pin @anthropic-ai/claude-code`);
    symlinkSync(claude, join(this.bin, "claude"));
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("CLAUDE") && !k.startsWith("LORE_")) env[k] = v;
    return { ...env, HOME: this.home, CLAUDE_CONFIG_DIR: this.config, LORE_HOME: this.loreHome, LORE_NO_DAEMON: "1", NO_COLOR: "1", PATH: `${this.bin}:${machinePath()}`, ...extra };
  }

  lore(args: string[], cwd = this.dir, extra: Record<string, string> = {}): Run {
    const cmd = loreCommand(args);
    const r = spawnSync(cmd.command, cmd.args, { cwd, env: this.env(extra), encoding: "utf8", timeout: 50_000 });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  }

  claude(args: string[], cwd = this.dir): Run {
    const r = spawnSync(join(this.bin, "claude"), args, { cwd, env: this.env(), encoding: "utf8", timeout: 50_000 });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A field of `claude mcp get`'s output, e.g. "Status". */
export function field(out: string, name: string): string | undefined {
  return new RegExp(`^\\s*${name}:\\s*(.*)$`, "m").exec(out)?.[1]?.trim();
}

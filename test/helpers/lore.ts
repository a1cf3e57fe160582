/** Asks lore questions in tests: in this process (fast) or through the CLI as a subprocess. */
import { spawnSync } from "node:child_process";
import { answer } from "../../src/queries/answer.ts";
import { tempDir } from "./git-repo.ts";
import { loreCommand } from "./lore-argv.ts";

/** Gives this test file its own LORE_HOME so no test touches the user's. */
export function isolateHome(): string {
  const home = tempDir("lore-home-");
  process.env.LORE_HOME = home;
  return home;
}

/** Answers a question in-process, as the daemon would. */
export function ask<T = any>(name: string, repo: string, input: Record<string, unknown> = {}): Promise<T> {
  return answer(name, { repo, ...input }, { cwd: repo }) as Promise<T>;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** Runs `lore ...args` as a person would (no daemon unless asked), in `cwd`. */
export function cli(cwd: string, args: string[], env: Record<string, string> = {}): CliResult {
  const cmd = loreCommand(args);
  const r = spawnSync(cmd.command, cmd.args, {
    cwd,
    env: { ...process.env, LORE_NO_DAEMON: "1", NO_COLOR: "1", ...env },
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  let json: any;
  try {
    json = JSON.parse(r.stdout);
  } catch {}
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json };
}

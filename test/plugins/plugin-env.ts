/**
 * What the plugin tests share: a fresh clone of the repository (what a host installs from), a private
 * HOME with the pinned clients, and the release's lore for this machine on the PATH (built once per process).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { AgentHome, type ClientBin, type Run } from "../setup/agent-env.ts";
import { builtRelease } from "../build/built-release.ts";
import { freshClone } from "../helpers/fresh-clone.ts";

export interface PluginEnv {
  home: AgentHome;
  /** The clean clone a host installs lore from. */
  repo: string;
  /** A git repository the clients run in (Gemini CLI and Claude Code start servers in the folder they run in). */
  project: string;
  /** A client's command in the project, async so the test's own HTTP server can answer meanwhile. */
  run(client: ClientBin, args: string[], env?: Record<string, string>, timeoutMs?: number): Promise<Run>;
  /** The tests' lore (helpers/lore-argv.ts), in the private HOME (lore setup, lore doctor). */
  lore(args: string[]): Run;
  cleanup(): void;
}

/** The release archive's binary for this machine (linux/darwin, x64/arm64). */
export async function releaseLore(): Promise<string> {
  const release = await builtRelease();
  return join(release.unpacked(process.platform === "darwin" ? "darwin" : "linux", process.arch === "arm64" ? "arm64" : "x64"), "lore");
}

export async function pluginEnv(clients: ClientBin[]): Promise<PluginEnv> {
  const home = new AgentHome(clients);
  symlinkSync(await releaseLore(), join(home.bin, "lore"));
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "lore-plugin-src-")));
  const repo = freshClone(join(scratch, "lore"));
  const project = join(home.dir, "project");
  mkdirSync(project);
  Bun.spawnSync(["git", "init", "-q", project]);
  return {
    home,
    repo,
    project,
    async run(client, args, env = {}, timeoutMs = 90_000) {
      const proc = Bun.spawn([join(home.bin, client), ...args], { cwd: project, env: home.env(env), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      const timer = setTimeout(() => proc.kill(), timeoutMs);
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      clearTimeout(timer);
      return { code, stdout, stderr };
    },
    lore: (args) => home.lore(args),
    cleanup() {
      home.cleanup();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** The PATH of a private HOME without its bin folder: the clients' folder only, so no lore is found. */
export function pathWithout(env: PluginEnv, client: ClientBin): string {
  const only = join(env.home.dir, `only-${client}`);
  mkdirSync(only, { recursive: true });
  try {
    symlinkSync(join(env.home.bin, client), join(only, client));
  } catch {}
  return [only, ...(env.home.env().PATH ?? "").split(delimiter).filter((d) => d !== env.home.bin)].join(delimiter);
}

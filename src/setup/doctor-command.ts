/** `lore doctor`: read-only checks of git, the daemon, the index and the agent setup, each ✓ / ! / ✗ with its fix. */
import { parseCommandArgv } from "../cli/argv.ts";
import { styleFor } from "../cli/style.ts";
import { VERSION } from "../version.ts";
import type { Client } from "./clients/client.ts";
import { CLIENTS } from "./clients/index.ts";
import { checkDaemon, checkGit, checkIndex, checkSocket, type Check } from "./doctor-checks.ts";
import { pluginCheck, pluginInstall } from "./plugin-installs.ts";
import { selfCommand } from "./self-command.ts";

/** A check that throws is a finding about that check, never the end of the report. */
async function guarded(name: string, run: () => Check | Check[] | Promise<Check | Check[]>): Promise<Check[]> {
  try {
    return [await run()].flat();
  } catch (err) {
    return [{ name, status: "fail", message: `the check itself failed: ${err instanceof Error ? err.message : String(err)}` }];
  }
}

/** A client's checks: lore setup's entries, or the plugin that installed lore (and whether setup's entry doubles it). */
async function clientChecks(c: Client): Promise<Check[]> {
  const own = await c.checks(selfCommand());
  const plugin = pluginInstall(c.id);
  if (!plugin) return own;
  const registered = own.some((k) => k.name === `${c.id} mcp` && !/is not registered/.test(k.message));
  return pluginCheck(c.id, plugin, registered);
}

export async function runChecks(cwd: string): Promise<Check[]> {
  let daemonUp = false;
  const daemon = await guarded("daemon", async () => {
    const d = await checkDaemon();
    daemonUp = d.health !== null && d.check.status === "ok";
    return d.check;
  });
  const rest = await Promise.all([
    guarded("git", checkGit),
    guarded("socket", checkSocket),
    guarded("index", () => checkIndex(cwd, daemonUp)),
    // Claude Code is always checked (as lore's first client); the others where this machine has them.
    ...CLIENTS.filter((c) => c.id === "claude" || c.detect()).map((c) => guarded(`${c.id} setup`, () => clientChecks(c))),
  ]);
  const [git, ...others] = rest;
  return [...git!, ...daemon, ...others.flat()];
}

export async function doctorCommand(argv: string[]): Promise<number> {
  const values = parseCommandArgv(argv, { json: { type: "boolean" }, help: { type: "boolean", short: "h" } }, "doctor").values;
  if (values.help) {
    process.stdout.write("Usage: lore doctor [--json]\n\nChecks git, the daemon, its socket, this repository's index and lore's setup in each coding agent found; changes nothing.\nExits 1 when a check fails.\n");
    return 0;
  }
  const checks = await runChecks(process.cwd());
  const failed = checks.some((c) => c.status === "fail");
  if (values.json) {
    process.stdout.write(JSON.stringify({ checks }) + "\n");
    return failed ? 1 : 0;
  }
  const s = await styleFor(1);
  const mark = { ok: s.green("✓"), warn: s.yellow("!"), fail: s.red("✗") };
  const width = Math.max(...checks.map((c) => c.name.length));
  const lines = [`lore doctor (lore ${VERSION})`];
  for (const c of checks) {
    lines.push(`${mark[c.status]} ${c.name.padEnd(width)}  ${c.message}`);
    if (c.fix && c.status !== "ok") lines.push(`  ${" ".repeat(width)}  ${s.dim("fix:")} ${c.fix}`);
  }
  const counts = (["fail", "warn"] as const).map((st) => checks.filter((c) => c.status === st).length);
  lines.push(failed ? `${counts[0]} failed, ${counts[1]} to look at.` : counts[1] ? `No failures; ${counts[1]} to look at.` : "All good.");
  process.stdout.write(lines.join("\n") + "\n");
  return failed ? 1 : 0;
}

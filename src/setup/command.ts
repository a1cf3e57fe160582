/** `lore setup`: register lore with the coding agents on this machine (or those --client names) and tell each when to use it; idempotent, with --dry-run and --uninstall. */
import { parseCommandArgv } from "../cli/argv.ts";
import { LoreError } from "../errors.ts";
import type { Client } from "./clients/client.ts";
import { CLIENTS, clientsNamed } from "./clients/index.ts";
import { didYouMean } from "../nearest.ts";
import { takeSetupLock, SetupBusy } from "./lock.ts";
import { pluginInstall } from "./plugin-installs.ts";
import { otherClientsJson } from "./register-mcp.ts";
import { commandLine, selfCommand } from "./self-command.ts";
import { formatStep, type Step } from "./step.ts";

const IDS = CLIENTS.map((c) => c.id).join(", ");

const HELP = `Usage: lore setup [--client NAME[,NAME…]] [--hook] [--dry-run] [--uninstall]

Registers lore's MCP server with your coding agents and tells each when to ask lore
rather than git. Without --client, sets up every client this machine has (its command
on the PATH, or its config folder) and says which it found and which it skipped.
  --client NAMES  only these: ${IDS}
  --hook          Claude Code: also add PreToolUse hooks (point git blame/log/show at lore,
                  snapshot the work tree before each Edit/Write)
  --dry-run       say what would change, change nothing
  --uninstall     remove what setup added (without --client: from every client)
Only lore's own entries are touched; each file is written whole or not at all.
What lore writes where, per client: docs/agents.md.`;

function flags(argv: string[]) {
  return parseCommandArgv(
    argv,
    { client: { type: "string" }, hook: { type: "boolean" }, "dry-run": { type: "boolean" }, uninstall: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    "setup",
  ).values;
}

const out = (line: string) => process.stdout.write(line + "\n");

/** The clients named, or those found on this machine (saying which it found and which it skipped). */
function chooseClients(named: string | undefined, uninstall: boolean): Client[] {
  if (named !== undefined) {
    const { clients, unknown } = clientsNamed(named);
    if (unknown.length || clients.length === 0) throw new LoreError("BAD_ARGUMENT", `unknown client ${unknown.join(", ") || "(none named)"}: --client takes ${IDS}.${unknown.length === 1 ? didYouMean(unknown[0]!, CLIENTS.map((c) => c.id)) : ""}`);
    return clients;
  }
  const found: Client[] = [];
  const seen: string[] = [];
  const skipped: string[] = [];
  for (const c of CLIENTS) {
    const why = c.detect();
    if (why) {
      found.push(c);
      seen.push(`${c.name} (${why})`);
    } else skipped.push(c.name);
  }
  out(`Found: ${seen.join(", ") || "none"}.`);
  if (skipped.length) out(`Skipped, not found: ${skipped.join(", ")}.${uninstall ? "" : " (lore setup --client NAME sets one up anyway.)"}`);
  // What an earlier setup put in a client's files goes, found or not.
  return uninstall ? [...CLIENTS] : found;
}

export async function setupCommand(argv: string[]): Promise<number> {
  const f = flags(argv);
  if (f.help) {
    out(HELP);
    return 0;
  }
  const dryRun = f["dry-run"] === true;
  const uninstall = f.uninstall === true;
  const clients = chooseClients(typeof f.client === "string" ? f.client : undefined, uninstall);
  const self = selfCommand();
  if (clients.length === 0) {
    out(`No coding agent found. Name one with --client (${IDS}), or add this server to your client's config:\n${otherClientsJson(self)}`);
    return 1;
  }
  let release = () => {};
  if (!dryRun) {
    try {
      release = takeSetupLock();
    } catch (err) {
      if (!(err instanceof SetupBusy)) throw err;
      out(formatStep({ status: "fail", message: err.message }));
      return 1;
    }
  }
  const steps: Step[] = [];
  try {
    if (dryRun) out("Dry run: nothing will be changed.");
    if (f.hook && !clients.some((c) => c.id === "claude")) out("--hook is for Claude Code, which this setup does not include.");
    if (!uninstall && self.fromSource) out(`Running from source, so there is no single lore binary: registering ${commandLine(self, ["mcp"])}. (npm run build makes dist/lore.)`);
    for (const c of clients) {
      const plugin = uninstall ? null : pluginInstall(c.id);
      if (plugin) {
        // The plugin carries the server and the instructions: a second registration would start lore twice.
        const mine: Step[] = [{ status: "unchanged", message: `lore is installed as the ${plugin.what}, with its server and instructions: not registering it a second time (to use lore setup instead: ${plugin.remove})` }];
        if (f.hook && c.id === "claude") mine.push({ status: "ok", message: `the plugin has the hooks as an option: claude plugin configure ${plugin.what.replace(/^plugin /, "")}` });
        out(`${c.name}:`);
        for (const s of mine) out(`  ${formatStep(s)}`);
        steps.push(...mine);
        continue;
      }
      const mine = uninstall ? await c.uninstall(dryRun) : await c.setup({ self, dryRun, hook: f.hook === true });
      // Uninstalling from every client: say nothing of those that had nothing of lore's.
      if (uninstall && f.client === undefined && !c.detect() && mine.every((s) => s.status === "unchanged")) continue;
      out(`${c.name}:`);
      for (const s of mine) out(`  ${formatStep(s)}`);
      steps.push(...mine);
    }
  } finally {
    release();
  }
  const failed = steps.some((s) => s.status === "fail");
  if (failed && !uninstall) out(`For a client lore could not set up, add this server to its config by hand:\n${otherClientsJson(self)}`);
  const changed = steps.filter((s) => s.status === "changed").length;
  if (!dryRun) out(changed === 0 ? (uninstall ? "Nothing to remove." : "Nothing to change: lore is set up.") : `${changed} change${changed === 1 ? "" : "s"} made.`);
  return failed ? 1 : 0;
}

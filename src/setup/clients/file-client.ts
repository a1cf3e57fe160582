/** A client whose MCP servers live in a config file lore edits itself (and, for some, an instructions file it puts a block in). */
import { accessSync, constants, existsSync } from "node:fs";
import { VERSION } from "../../version.ts";
import { entryState, removeEntry, setEntry, type Target } from "../edit/apply.ts";
import { ConfigError } from "../edit/config-error.ts";
import type { EntryFormat } from "../edit/entry-format.ts";
import { markedBlock } from "../edit/marked-block.ts";
import { INSTRUCTIONS_TEXT } from "../instructions-text.ts";
import type { SelfCommand } from "../self-command.ts";
import type { Check, Step } from "../step.ts";
import type { Client } from "./client.ts";
import { findOnPath } from "../../on-path.ts";
import { clientTimeout, runTool } from "./cli.ts";

export interface FileClientSpec {
  id: string;
  name: string;
  /** Its commands: one on the PATH, the client is installed. */
  cli?: string[];
  /** Its config folder: present, the client is (or was) installed. */
  dir(): string;
  config(): { file: string; format: EntryFormat };
  /** lore's entry for this client. */
  entry(self: SelfCommand): unknown;
  /** The command line an entry runs, or null when it is not one lore wrote. */
  commandOf(entry: unknown): string[] | null;
  /** Its global instructions file, where lore puts its block. */
  instructions?(): string;
  /** Why there is no instructions block, said at setup. */
  noInstructions?: string;
  /** The client's own view of what setup wrote (e.g. `codex mcp get`). */
  confirm?(self: SelfCommand): Promise<Step | null>;
  /** More to say after setup (e.g. what the new file shadows). */
  notes?(): Step[];
  /** doctor's further checks of the client (e.g. whether it starts MCP servers in this folder). */
  moreChecks?(): Check[];
}

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The version a registered lore command says it is ("lore 0.1.0 (abc)" → "0.1.0"), or null. */
async function versionOf(command: string[]): Promise<string | null> {
  const args = command.slice(1);
  if (args[args.length - 1] === "mcp") args.pop();
  const r = await runTool(command[0]!, [...args, "--version"], clientTimeout(10_000));
  return r.code === 0 ? (/lore (\S+)/.exec(r.stdout)?.[1] ?? null) : null;
}

export function fileClient(spec: FileClientSpec): Client {
  const mcp = (): Target => ({ ...spec.config(), label: `MCP server "lore"` });
  const block = (file: string): Target => ({ file, format: markedBlock, label: "lore's instructions block" });
  const fix = `lore setup --client ${spec.id}`;

  async function mcpCheck(self: SelfCommand): Promise<Check> {
    const name = `${spec.id} mcp`;
    const t = mcp();
    const want = spec.entry(self);
    const { state, have } = entryState(t, want);
    if (state === "missing") return { name, status: "warn", message: `lore is not registered with ${spec.name} (${t.file})`, fix };
    if (state === "current") return { name, status: "ok", message: `registered in ${t.file}` };
    const command = spec.commandOf(have);
    if (!command) return { name, status: "fail", message: `${t.file} has a "lore" entry that does not run lore mcp`, fix };
    if (!isExecutable(command[0]!)) return { name, status: "fail", message: `registered in ${t.file}, but its command ${command[0]} no longer exists`, fix };
    const version = await versionOf(command);
    const which = version ? `lore ${version}` : "a command that does not say its lore version";
    return { name, status: "warn", message: `registered in ${t.file}, but runs ${command.join(" ")} (${which}), not this lore ${VERSION}`, fix };
  }

  function blockCheck(file: string): Check {
    const name = `${spec.id} instructions`;
    const { state } = entryState(block(file), INSTRUCTIONS_TEXT);
    if (state === "current") return { name, status: "ok", message: `lore's block is in ${file}` };
    if (state === "outdated") return { name, status: "warn", message: `lore's block in ${file} is from another lore version`, fix };
    return { name, status: "warn", message: `no lore block in ${file}, so the agent is not told when to use lore`, fix };
  }

  const isRegistered = (self: SelfCommand) => {
    try {
      return entryState(mcp(), spec.entry(self)).state !== "missing";
    } catch {
      return false;
    }
  };

  const guard = (name: string, run: () => Check | Promise<Check>) =>
    Promise.resolve()
      .then(run)
      .catch((err): Check => {
        if (err instanceof ConfigError) return { name, status: "fail", message: err.message, fix: `repair ${err.file} by hand, then ${fix}` };
        throw err;
      });

  return {
    id: spec.id,
    name: spec.name,
    detect() {
      const cli = spec.cli?.find((c) => findOnPath(c));
      if (cli) return `${cli} on the PATH`;
      return existsSync(spec.dir()) ? `${spec.dir()} exists` : null;
    },
    async setup({ self, dryRun }) {
      const steps: Step[] = [setEntry(mcp(), spec.entry(self), dryRun)];
      const confirmed = steps[0]!.status === "changed" && !dryRun && spec.confirm ? await spec.confirm(self) : null;
      if (confirmed) steps.push(confirmed);
      if (spec.instructions) steps.push(setEntry(block(spec.instructions()), INSTRUCTIONS_TEXT, dryRun));
      else if (spec.noInstructions) steps.push({ status: "ok", message: spec.noInstructions });
      if (!dryRun && spec.notes) steps.push(...spec.notes());
      return steps;
    },
    async uninstall(dryRun) {
      const steps = [removeEntry(mcp(), dryRun)];
      if (spec.instructions) steps.push(removeEntry(block(spec.instructions()), dryRun));
      return steps;
    },
    async checks(self) {
      const checks = [await guard(`${spec.id} mcp`, () => mcpCheck(self))];
      if (spec.instructions) {
        const file = spec.instructions();
        checks.push(await guard(`${spec.id} instructions`, () => blockCheck(file)));
      }
      // Only where lore is registered: a client without it has nothing to start.
      if (spec.moreChecks && isRegistered(self)) checks.push(...spec.moreChecks());
      return checks;
    },
  };
}

/** `{ command, args }` entries (Claude Desktop, Cursor, Gemini CLI, Zed, VS Code). */
/** The entry most clients take: `command` and `args` (what commandArgs reads back). */
export const commandEntry = (self: SelfCommand) => ({ command: self.command, args: [...self.prefix, "mcp"] });

export function commandArgs(entry: unknown): string[] | null {
  const e = entry as { command?: unknown; args?: unknown } | null;
  if (typeof e?.command !== "string") return null;
  const args = Array.isArray(e.args) ? e.args.filter((a): a is string => typeof a === "string") : [];
  return [e.command, ...args];
}

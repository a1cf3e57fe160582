/** What every agent client gives setup and doctor: how to find it, set lore up in it, take lore out, and check it. */
import type { SelfCommand } from "../self-command.ts";
import type { Check, Step } from "../step.ts";

export interface SetupOptions {
  self: SelfCommand;
  dryRun: boolean;
  /** --hook: Claude Code's PreToolUse hooks. */
  hook: boolean;
}

export interface Client {
  /** The name --client takes: "codex", "vscode". */
  id: string;
  /** The name people know: "Codex CLI". */
  name: string;
  /** What shows this machine has the client ("codex on the PATH", "~/.codex exists"), or null. */
  detect(): string | null;
  setup(o: SetupOptions): Promise<Step[]>;
  uninstall(dryRun: boolean): Promise<Step[]>;
  checks(self: SelfCommand): Promise<Check[]>;
}

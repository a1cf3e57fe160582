/**
 * `lore hook pretooluse` (hidden): Claude Code's PreToolUse hook. Reads the tool call on
 * stdin and, for git blame/log/show, adds context pointing at the lore tool that answers
 * the same question. It never decides permissions and never fails the agent's call.
 */
import { gitNudge } from "./git-nudge.ts";
import { snapshotBeforeEdit } from "./snapshot-hook.ts";

const MAX_INPUT = 1 << 20;

async function readStdin(timeoutMs: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const read = (async () => {
    for await (const chunk of process.stdin) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size > MAX_INPUT) break;
    }
  })();
  await Promise.race([read, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
  return Buffer.concat(chunks).toString("utf8");
}

/** The hook's stdout for one PreToolUse event, or "" for no opinion. */
export function preToolUseOutput(event: unknown): string {
  if (typeof event !== "object" || event === null) return "";
  const e = event as { tool_name?: unknown; tool_input?: { command?: unknown } };
  if (e.tool_name !== "Bash" || typeof e.tool_input?.command !== "string") return "";
  const context = gitNudge(e.tool_input.command);
  // additionalContext only: a permissionDecision of "allow" would auto-approve every git command it sees.
  return context ? JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: context } }) : "";
}

export async function hookCommand(argv: string[]): Promise<number> {
  if (argv[0] === "snapshot") {
    if (!(await snapshotBeforeEdit(() => readStdin(2000)))) process.exit(0);
    return 0;
  }
  if (argv[0] !== "pretooluse") {
    process.stderr.write("lore hook: the hooks are pretooluse and snapshot (installed by lore setup --hook).\n");
    return 2;
  }
  try {
    const out = preToolUseOutput(JSON.parse(await readStdin(2000)));
    if (out) process.stdout.write(out + "\n");
  } catch {
    // Unreadable input: say nothing, and let the agent's command run.
  }
  return 0;
}

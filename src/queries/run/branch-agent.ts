/** Whether an agent made a branch: a name under an agent's prefix (claude/…), or commits that carry an agent's trailer or author. */
import { git } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";

const AGENTS = ["claude", "codex", "copilot", "cursor", "devin", "jules", "gemini", "aider", "openhands", "sweep", "amp"];
const NAMED = new RegExp(`^(${AGENTS.join("|")})[/-]`, "i");
const WORD = new RegExp(`\\b(${AGENTS.join("|")})\\b`, "i");
/** Trailers agents add: Co-authored-by: Claude <noreply@anthropic.com>, Generated with [Claude Code], Co-authored-by: Cursor Agent. */
const TRAILER = /^(?:co-authored-by|generated-by|assisted-by|generated with|made-with):?\s*\[?([^<\]\n]*)/gim;

/** The agent a branch's name says (remote-tracking names without their remote). */
export function agentOfName(name: string, remote: boolean): string | undefined {
  const local = remote ? name.slice(name.indexOf("/") + 1) : name;
  return NAMED.exec(local)?.[1]?.toLowerCase();
}

/** The agent a commit message or author names, if any. */
export function agentOfMessage(message: string, author: string): string | undefined {
  for (const m of message.matchAll(TRAILER)) {
    const w = WORD.exec(m[1]!);
    if (w) return w[1]!.toLowerCase();
  }
  // A bot account: copilot-swe-agent[bot], devin-ai-integration[bot].
  return /\[bot\]$/.test(author) ? WORD.exec(author)?.[1]?.toLowerCase() : undefined;
}

/** The messages of these commits, by full sha (one git log). */
export async function messages(ctx: QueryContext, shas: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (shas.length === 0) return out;
  const text = (await git(["log", "--no-walk=unsorted", "--stdin", "--no-show-signature", "--format=%H%x00%B%x00"], { ...ctx.index.git, input: [...new Set(shas)].join("\n") + "\n" })).toString("utf8");
  const parts = text.split("\0");
  for (let i = 0; i + 1 < parts.length; i += 2) out.set(parts[i]!.trim(), parts[i + 1]!);
  return out;
}

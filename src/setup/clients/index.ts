/** Every client lore sets up, in the order setup and doctor go through them, and the names --client takes. */
import { claudeCode } from "./claude-code.ts";
import type { Client } from "./client.ts";
import { codex } from "./codex.ts";
import { claudeDesktop, cursor, vscode, zed } from "./editors.ts";
import { gemini } from "./gemini.ts";
import { opencode } from "./opencode.ts";

export const CLIENTS: readonly Client[] = [claudeCode, codex, gemini, opencode, cursor, vscode, claudeDesktop, zed];

const ALIASES: Record<string, string> = { "claude-code": "claude", "codex-cli": "codex", "gemini-cli": "gemini", code: "vscode", "vs-code": "vscode", "claude-app": "claude-desktop" };

/** The clients a --client list names; unknown names are returned apart, to be reported. */
export function clientsNamed(list: string): { clients: Client[]; unknown: string[] } {
  const clients: Client[] = [];
  const unknown: string[] = [];
  for (const raw of list.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean)) {
    const id = ALIASES[raw] ?? raw;
    const c = CLIENTS.find((x) => x.id === id);
    if (!c) unknown.push(raw);
    else if (!clients.includes(c)) clients.push(c);
  }
  return { clients, unknown };
}

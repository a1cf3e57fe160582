/**
 * Whether Gemini CLI trusts a folder, as 0.61 decides it (packages/core/src/utils/trust.ts): in a
 * folder it does not trust it starts no MCP server, lore included (`gemini mcp list` says Disabled).
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, relative, isAbsolute } from "node:path";
import { parse } from "jsonc-parser";
import type { Check } from "../step.ts";
import { geminiDir } from "./paths.ts";

type Env = Record<string, string | undefined>;

const real = (p: string) => {
  try {
    return existsSync(p) ? realpathSync(p) : p;
  } catch {
    return p;
  }
};
const within = (parent: string, child: string) => {
  const r = relative(parent, child);
  return r === "" || (!r.startsWith("..") && !isAbsolute(r));
};

/** The file Gemini CLI keeps its trust decisions in ($GEMINI_CLI_TRUSTED_FOLDERS_PATH, else ~/.gemini/trustedFolders.json). */
export const trustedFoldersFile = (env: Env = process.env) => env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || join(geminiDir(env), "trustedFolders.json");

/** The rule of trustedFolders.json that decides `folder`: the longest one whose folder (a TRUST_PARENT's parent) holds it. */
function ruleFor(file: string, folder: string): { path: string; level: string } | undefined {
  let rules: unknown;
  try {
    rules = parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
  if (!rules || typeof rules !== "object" || Array.isArray(rules)) return undefined;
  let best: { path: string; level: string } | undefined;
  for (const [path, level] of Object.entries(rules as Record<string, unknown>)) {
    if (level !== "TRUST_FOLDER" && level !== "TRUST_PARENT" && level !== "DO_NOT_TRUST") continue;
    const applies = real(level === "TRUST_PARENT" ? dirname(path) : path);
    if (within(applies, real(folder)) && path.length > (best?.path.length ?? -1)) best = { path, level };
  }
  return best;
}

/** doctor's finding for `folder`: ok where Gemini CLI starts lore there, else what the user will see and how to trust it. */
export function geminiTrustCheck(folder: string, settings: { security?: { folderTrust?: { enabled?: unknown } } } | undefined, env: Env = process.env): Check {
  const name = "gemini trust";
  if (env.GEMINI_RESTRICTED_MODE === "true" || env.GEMINI_CLI_TRUST_WORKSPACE === "false")
    return { name, status: "warn", message: `Gemini CLI trusts no folder in this environment (${env.GEMINI_RESTRICTED_MODE === "true" ? "GEMINI_RESTRICTED_MODE=true" : "GEMINI_CLI_TRUST_WORKSPACE=false"}): it starts no MCP server, so gemini mcp list shows lore Disabled`, fix: "unset that variable" };
  if (env.GEMINI_CLI_TRUST_WORKSPACE === "true") return { name, status: "ok", message: "Gemini CLI trusts every folder here (GEMINI_CLI_TRUST_WORKSPACE=true)" };
  if (settings?.security?.folderTrust?.enabled === false) return { name, status: "ok", message: "Gemini CLI's folder trust is off (security.folderTrust.enabled: false): it starts lore in every folder" };
  const file = trustedFoldersFile(env);
  const rule = ruleFor(file, folder);
  const fix = `run gemini in ${folder} and choose "Trust folder" (or type /permissions trust there), or add "${real(folder)}": "TRUST_FOLDER" to ${file}`;
  if (!rule)
    return { name, status: "warn", message: `Gemini CLI does not trust ${folder} yet (no rule in ${file}): there it starts no MCP server, so gemini mcp list shows lore Disabled and the agent has no lore tools`, fix };
  if (rule.level === "DO_NOT_TRUST")
    return { name, status: "warn", message: `Gemini CLI does not trust ${folder} (${file}: "${rule.path}": DO_NOT_TRUST): there gemini mcp list shows lore Disabled and the agent has no lore tools`, fix };
  return { name, status: "ok", message: `Gemini CLI trusts ${folder} (${file}: "${rule.path}": ${rule.level}), so it starts lore there` };
}

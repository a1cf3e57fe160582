/** Where each client keeps its user config, per OS and honouring the variables that move it. */
import { homedir } from "node:os";
import { join } from "node:path";

type Env = Record<string, string | undefined>;

/** The per-user application data folder: %APPDATA%, ~/Library/Application Support, or $XDG_CONFIG_HOME (~/.config). */
export function appData(env: Env = process.env, platform = process.platform): string {
  if (platform === "win32") return env.APPDATA || join(homedir(), "AppData", "Roaming");
  if (platform === "darwin") return join(homedir(), "Library", "Application Support");
  return xdgConfig(env);
}

export function xdgConfig(env: Env = process.env): string {
  return env.XDG_CONFIG_HOME || join(homedir(), ".config");
}

/** Codex: $CODEX_HOME, else ~/.codex. */
export const codexHome = (env: Env = process.env) => env.CODEX_HOME || join(homedir(), ".codex");

/** Gemini CLI: ~/.gemini, where $GEMINI_CLI_HOME stands in for the home folder. */
export const geminiDir = (env: Env = process.env) => join(env.GEMINI_CLI_HOME || homedir(), ".gemini");

/** opencode uses the XDG folders on every OS. */
export const opencodeDir = (env: Env = process.env) => join(xdgConfig(env), "opencode");

export const cursorDir = () => join(homedir(), ".cursor");

export const vscodeUserDir = (env: Env = process.env, platform = process.platform) => join(appData(env, platform), "Code", "User");

export const claudeDesktopDir = (env: Env = process.env, platform = process.platform) => join(appData(env, platform), "Claude");

/** Zed: ~/.config/zed on Linux and macOS ($XDG_CONFIG_HOME honoured), %APPDATA%\Zed on Windows. */
export const zedDir = (env: Env = process.env, platform = process.platform) => (platform === "win32" ? join(appData(env, platform), "Zed") : join(xdgConfig(env), "zed"));

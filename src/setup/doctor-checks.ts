/** lore doctor's checks: each reads, never writes, and says the command that fixes what it finds. */
import { gitText } from "../git/run.ts";
import { MIN_GIT, parseGitVersion } from "../git/version.ts";
import { existsSync, statSync } from "node:fs";
import { buildId } from "../client/build-id.ts";
import { callQuestion } from "../client/call.ts";
import { health, type Health } from "../client/rpc-client.ts";
import { daemonPaths } from "../client/socket-path.ts";
import { toLoreError } from "../errors.ts";
import type { StatusOutput } from "../queries/status.ts";
import { findClaude, getServer } from "./claude-cli.ts";
import { skillFile } from "./claude-paths.ts";
import { hookInstalled } from "./hook-settings.ts";
import { SERVER_NAME, serverConfig } from "./register-mcp.ts";
import { selfCommand } from "./self-command.ts";
import { skillState } from "./skill.ts";
import type { Check } from "./step.ts";
import { plural } from "../plural.ts";

export type { Check };

function gitVersionText(): Promise<string | null> {
  return gitText(["--version"], { cwd: "/", timeoutMs: 10_000 }).catch(() => null);
}

export async function checkGit(): Promise<Check> {
  const text = await gitVersionText();
  const fix = `install git ${MIN_GIT.join(".")} or newer (apt-get install git, brew install git)`;
  if (text === null) return { name: "git", status: "fail", message: "git is not on the PATH; lore reads history through it", fix };
  const v = parseGitVersion(text);
  if (!v) return { name: "git", status: "warn", message: `cannot read the version in "${text}"` };
  const [major, minor] = v;
  if (major < MIN_GIT[0] || (major === MIN_GIT[0] && minor < MIN_GIT[1])) return { name: "git", status: "fail", message: `${text}: lore needs ${MIN_GIT.join(".")} or newer`, fix };
  return { name: "git", status: "ok", message: text };
}

export async function checkDaemon(): Promise<{ check: Check; health: Health | null }> {
  const { socket } = daemonPaths();
  const h = await health(socket, 1000);
  if (!h) return { health: null, check: { name: "daemon", status: "warn", message: `not running (socket ${socket}); the first question starts it, or lore answers in-process`, fix: "lore daemon start" } };
  const me = buildId();
  if (h.version !== me.version || h.commit !== me.commit)
    return { health: h, check: { name: "daemon", status: "warn", message: `running lore ${h.version} (${h.commit}), this is lore ${me.version} (${me.commit}); the next question replaces it`, fix: "lore daemon stop" } };
  return { health: h, check: { name: "daemon", status: "ok", message: `running: pid ${h.pid}, lore ${h.version}, up ${Math.round(h.uptimeS)} s` } };
}

export function checkSocket(): Check {
  const { dir, socket } = daemonPaths();
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  if (!existsSync(dir)) return { name: "socket", status: "ok", message: `no socket folder yet (${dir}); the daemon creates it private` };
  const d = statSync(dir);
  if (uid !== undefined && d.uid !== uid) return { name: "socket", status: "fail", message: `${dir} belongs to another user, so lore will not use it`, fix: "set LORE_HOME to a folder of your own" };
  const open = (d.mode & 0o077) !== 0;
  const mode = (d.mode & 0o777).toString(8);
  // With no socket in it yet, an open folder exposes nothing: the daemon makes it private when it starts.
  if (!existsSync(socket))
    return open ? { name: "socket", status: "warn", message: `${dir} is open to others (mode ${mode}); the daemon will make it private`, fix: `chmod 700 ${dir}` } : { name: "socket", status: "ok", message: `${dir} is private (0700); no socket now` };
  if (open) return { name: "socket", status: "fail", message: `${dir} holds the daemon's socket but is open to others (mode ${mode})`, fix: `chmod 700 ${dir}` };
  const s = statSync(socket);
  if ((s.mode & 0o077) !== 0) return { name: "socket", status: "fail", message: `${socket} is open to others (mode ${(s.mode & 0o777).toString(8)})`, fix: `chmod 600 ${socket}` };
  return { name: "socket", status: "ok", message: `${socket} is private (0600 in a 0700 folder)` };
}

/** The index of the repository doctor runs in, through the daemon when it is up, else in-process. */
export async function checkIndex(cwd: string, daemonUp: boolean): Promise<Check[]> {
  let s: StatusOutput;
  try {
    s = (await callQuestion("status", { repo: cwd }, { cwd, noDaemon: !daemonUp })) as StatusOutput;
  } catch (err) {
    const e = toLoreError(err);
    if (e.code === "NOT_A_REPO") return [{ name: "index", status: "warn", message: `${cwd} is not in a git repository; run lore doctor inside one to check its index` }];
    return [{ name: "index", status: "fail", message: `${e.code}: ${e.message}`, fix: "lore status" }];
  }
  const checks: Check[] = [];
  const counts = `${plural(s.commitsIndexed, "commit")}, ${s.filesBlamed} of ${plural(s.filesTotal - s.filesUnblamable, "text file")} blamed`;
  // An unborn branch (git checkout --orphan) answers nothing at HEAD, whatever the index holds.
  if (s.head === null && s.branch) checks.push({ name: "head", status: "warn", message: `HEAD is the unborn branch ${s.branch}: no commits on it yet, so questions answer only as of a revision that exists (--until REV)` });
  if (s.state === "fresh") checks.push({ name: "index", status: "ok", message: `${s.repo} indexed and fresh (${counts})` });
  else if (s.state === "empty") checks.push({ name: "index", status: "warn", message: `${s.repo} has no index yet: HEAD has no commits` });
  else if (s.state === "indexing") checks.push({ name: "index", status: "warn", message: `${s.repo} is being indexed now (${counts})`, fix: "lore status" });
  else if (s.indexedHead === null) checks.push({ name: "index", status: "warn", message: `${s.repo} is not indexed yet; the first question builds the index`, fix: "lore hotspots" });
  else checks.push({ name: "index", status: "warn", message: `${s.repo}'s index is behind HEAD; the next question catches it up`, fix: "lore status" });
  if (s.shallow) checks.push({ name: "shallow", status: "warn", message: "this is a shallow clone: history (and blame) stop at the clone's depth", fix: "git fetch --unshallow" });
  if (s.maxCommits) checks.push({ name: "history cap", status: "warn", message: `the index holds only the newest ${plural(s.maxCommits, "commit")}` });
  return checks;
}

export async function checkClaude(): Promise<Check> {
  const claude = findClaude();
  if (!claude) return { name: "claude mcp", status: "warn", message: "Claude Code's claude command is not on the PATH (needed only for Claude Code)", fix: "npm install -g @anthropic-ai/claude-code && lore setup" };
  const found = await getServer(claude, SERVER_NAME);
  if (!found) return { name: "claude mcp", status: "warn", message: "lore is not registered with Claude Code", fix: "lore setup" };
  const want = serverConfig(selfCommand());
  const same = found.command === want.command && found.args === want.args.join(" ");
  if (!found.connected) return { name: "claude mcp", status: "fail", message: `registered (${found.command} ${found.args}) but Claude Code cannot start it: ${found.status}`, fix: "lore setup" };
  if (!same) return { name: "claude mcp", status: "warn", message: `registered and connected, but runs ${found.command} ${found.args}, not this lore`, fix: "lore setup" };
  return { name: "claude mcp", status: "ok", message: `registered and connected (${found.scope.replace(/\s*\(.*$/, "") || "user scope"})` };
}

export function checkSkill(): Check {
  const state = skillState();
  if (state === "current") return { name: "skill", status: "ok", message: `installed: ${skillFile()}` };
  if (state === "outdated") return { name: "skill", status: "warn", message: `${skillFile()} is from another lore version`, fix: "lore setup" };
  return { name: "skill", status: "warn", message: "the routing skill is not installed, so the agent is not told when to use lore", fix: "lore setup" };
}

export function checkHook(): Check {
  return hookInstalled()
    ? { name: "hook", status: "ok", message: "lore's PreToolUse hooks installed (lore setup --hook: the git nudge, the snapshot before each edit)" }
    : { name: "hook", status: "ok", message: "no PreToolUse hook (optional: lore setup --hook adds it)" };
}

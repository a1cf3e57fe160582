/**
 * `lore hook snapshot` (hidden): Claude Code's PreToolUse hook for Edit/Write/MultiEdit/NotebookEdit.
 * Snapshots the work tree of the file about to be edited, quietly: no output, exit 0 whatever happens,
 * so a failure never blocks or slows the edit beyond a few seconds.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { callQuestion } from "../client/call.ts";

const GIVE_UP_MS = 4000;

/** The folder to snapshot and the note to take with it, from the hook's event; undefined when there is none. */
export function snapshotTarget(event: unknown): { dir: string; message: string } | undefined {
  if (typeof event !== "object" || event === null) return undefined;
  const e = event as { cwd?: unknown; tool_name?: unknown; tool_input?: { file_path?: unknown; notebook_path?: unknown } };
  const cwd = typeof e.cwd === "string" && isAbsolute(e.cwd) ? e.cwd : undefined;
  const file = [e.tool_input?.file_path, e.tool_input?.notebook_path].find((f): f is string => typeof f === "string" && f !== "");
  const abs = file ? resolve(cwd ?? process.cwd(), file) : undefined;
  // The edited file's folder finds its repository (it may not be the one Claude Code started in); a new file's folder may not exist yet.
  let dir = abs ? dirname(abs) : cwd;
  while (dir && !existsSync(dir)) dir = dirname(dir);
  if (!dir || !statSync(dir).isDirectory()) return undefined;
  const tool = typeof e.tool_name === "string" ? e.tool_name : "edit";
  const shown = abs && cwd && !relative(cwd, abs).startsWith("..") ? relative(cwd, abs) : abs;
  return { dir, message: `before ${tool}${shown ? ` ${shown}` : ""}` };
}

/** False when the snapshot was given up on (the caller then exits rather than wait for it). */
export async function snapshotBeforeEdit(readEvent: () => Promise<string>): Promise<boolean> {
  try {
    const target = snapshotTarget(JSON.parse(await readEvent()));
    if (!target) return true;
    const call = callQuestion("snapshot", { repo: target.dir, message: target.message }, { cwd: target.dir, noDaemon: false }).then(
      () => true,
      () => true,
    );
    return await Promise.race([call, new Promise<boolean>((r) => setTimeout(() => r(false), GIVE_UP_MS).unref())]);
  } catch {
    // Not a repository, no daemon, unreadable input: the edit goes ahead all the same.
    return true;
  }
}

/**
 * Adds and removes lore's PreToolUse hook in Claude Code's settings.json. The file is
 * handled as unknown JSON: lore touches only its own entry and keeps everything else.
 */
import { copyFileSync, existsSync, readFileSync, statSync } from "node:fs";
import { settingsFile } from "./claude-paths.ts";
import { ConfigError } from "./edit/config-error.ts";
import { writeAtomic } from "./edit/text-file.ts";
import type { Step } from "./step.ts";

/** Claude Code runs the hook only for Bash calls that start with git: no process for every other command. */
export const HOOK_IF = "Bash(git *)";

/** The tools whose calls edit files: lore snapshots the work tree before each. */
export const EDIT_MATCHER = "Edit|Write|MultiEdit|NotebookEdit";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export function hookEntry(command: string): Json {
  return { type: "command", command, if: HOOK_IF, timeout: 10 };
}

/** The snapshot hook: quiet, and short-lived (a failure or a timeout never blocks the edit). */
export function snapshotEntry(command: string): Json {
  return { type: "command", command, timeout: 5 };
}

/** lore's entry of one kind (`pretooluse`, `snapshot`), wherever it was registered from: its command ends in `hook <kind>` and names lore. */
function isOursOf(kind: string): (hook: unknown) => boolean {
  const end = new RegExp(`\\bhook ${kind}$`);
  return (hook) => isObject(hook) && typeof hook.command === "string" && end.test(hook.command) && /lore|main\.ts/.test(hook.command);
}

const isNudge = isOursOf("pretooluse");
const isSnapshot = isOursOf("snapshot");

/** Any of lore's entries. */
export function isOurs(hook: unknown): boolean {
  return isNudge(hook) || isSnapshot(hook);
}

/** The PreToolUse list, or an explanation of why the file's shape is not one lore will edit. */
function preToolUse(settings: unknown): unknown[] | undefined | string {
  if (!isObject(settings)) return "it is not a JSON object";
  if (settings.hooks === undefined) return undefined;
  if (!isObject(settings.hooks)) return `its "hooks" is not an object`;
  const list = settings.hooks.PreToolUse;
  if (list === undefined) return undefined;
  return Array.isArray(list) ? list : `its "hooks.PreToolUse" is not a list`;
}

export type HookChange = "added" | "updated" | "unchanged";

/** `settings` with one of lore's entries present under `matcher` (structuredClone: the caller's object is left as it was). */
function withEntry(settings: unknown, matcher: string, want: Json, mine: (hook: unknown) => boolean): { settings: Json; change: HookChange } {
  const list = preToolUse(settings);
  if (typeof list === "string") throw new Error(`settings.json cannot take the hook: ${list}`);
  const out = structuredClone(settings) as Json;
  const hooks = (out.hooks ??= {}) as Json;
  const groups = (hooks.PreToolUse ??= []) as unknown[];
  for (const group of groups) {
    if (!isObject(group) || !Array.isArray(group.hooks)) continue;
    const i = group.hooks.findIndex(mine);
    if (i < 0) continue;
    if (group.matcher === matcher && JSON.stringify(group.hooks[i]) === JSON.stringify(want)) return { settings: out, change: "unchanged" };
    group.hooks.splice(i, 1);
    if (group.hooks.length === 0) groups.splice(groups.indexOf(group), 1);
    groups.push({ matcher, hooks: [want] });
    return { settings: out, change: "updated" };
  }
  groups.push({ matcher, hooks: [want] });
  return { settings: out, change: "added" };
}

/** `settings` with lore's git nudge present. */
export function withHook(settings: unknown, command: string): { settings: Json; change: HookChange } {
  return withEntry(settings, "Bash", hookEntry(command), isNudge);
}

/** `settings` with lore's snapshot-before-edit hook present. */
export function withSnapshotHook(settings: unknown, command: string): { settings: Json; change: HookChange } {
  return withEntry(settings, EDIT_MATCHER, snapshotEntry(command), isSnapshot);
}

/** `settings` without lore's hook; containers only lore's entry filled are removed with it. */
export function withoutHook(settings: unknown): { settings: Json; removed: number } {
  const list = preToolUse(settings);
  if (typeof list === "string") throw new Error(`settings.json cannot be edited: ${list}`);
  const out = structuredClone(settings) as Json;
  if (!list) return { settings: out, removed: 0 };
  const hooks = out.hooks as Json;
  const groups = hooks.PreToolUse as unknown[];
  let removed = 0;
  for (let g = groups.length - 1; g >= 0; g--) {
    const group = groups[g];
    if (!isObject(group) || !Array.isArray(group.hooks)) continue;
    const kept = group.hooks.filter((h) => !isOurs(h));
    if (kept.length === group.hooks.length) continue;
    removed += group.hooks.length - kept.length;
    if (kept.length === 0) groups.splice(g, 1);
    else group.hooks = kept;
  }
  if (removed > 0 && groups.length === 0) delete hooks.PreToolUse;
  if (removed > 0 && Object.keys(hooks).length === 0) delete out.hooks;
  return { settings: out, removed };
}

export function hookInstalled(): boolean {
  try {
    const list = preToolUse(JSON.parse(readFileSync(settingsFile(), "utf8")));
    return Array.isArray(list) && list.some((g) => isObject(g) && Array.isArray(g.hooks) && g.hooks.some(isOurs));
  } catch {
    return false;
  }
}

function readSettings(file: string): { text: string | null; settings: unknown } {
  if (!existsSync(file)) return { text: null, settings: {} };
  const text = readFileSync(file, "utf8");
  return { text, settings: text.trim() === "" ? {} : JSON.parse(text) };
}

/** Backs up the old file, then replaces it in one rename so Claude Code never reads half a file. */
function writeSettings(file: string, oldText: string | null, settings: Json): void {
  if (oldText !== null) copyFileSync(file, file + ".lore-backup");
  writeAtomic(file, JSON.stringify(settings, null, 2) + "\n", oldText !== null ? statSync(file).mode & 0o777 : 0o644);
}

function edit(dryRun: boolean, unchanged: string, change: (settings: unknown) => { settings: Json; message: string | null }): Step {
  const file = settingsFile();
  let read;
  try {
    read = readSettings(file);
  } catch (err) {
    return { status: "fail", message: `${file} is not valid JSON (${err instanceof Error ? err.message : String(err)}); fix it and run lore setup again. Nothing was changed.` };
  }
  let next;
  try {
    next = change(read.settings);
  } catch (err) {
    return { status: "fail", message: `${file}: ${err instanceof Error ? err.message : String(err)}. Nothing was changed.` };
  }
  if (next.message === null) return { status: "unchanged", message: `${unchanged} in ${file}` };
  if (dryRun) return { status: "changed", message: `would ${next.message} in ${file}` };
  try {
    writeSettings(file, read.text, next.settings);
  } catch (err) {
    if (err instanceof ConfigError) return { status: "fail", message: err.message };
    throw err;
  }
  return { status: "changed", message: `${next.message.replace(/^add/, "added").replace(/^update/, "updated").replace(/^remove/, "removed")} in ${file}${read.text !== null ? ` (backup: ${file}.lore-backup)` : ""}` };
}

/** Both of lore's hooks in one edit of settings.json (one backup, of the user's own file): the git nudge and the snapshot before each edit. */
export function installHook(command: string, dryRun: boolean, snapshotCommand?: string): Step {
  return edit(dryRun, "PreToolUse hooks already installed", (settings) => {
    const r = withHook(settings, command);
    const done: string[] = [];
    if (r.change !== "unchanged") done.push(`${r.change === "added" ? "add" : "update"} the PreToolUse hook (Bash, if ${HOOK_IF}): ${command}`);
    if (snapshotCommand === undefined) return { settings: r.settings, message: done[0] ?? null };
    const s = withSnapshotHook(r.settings, snapshotCommand);
    if (s.change !== "unchanged") done.push(`${done.length ? "" : s.change === "added" ? "add " : "update "}the snapshot hook (${EDIT_MATCHER}): ${snapshotCommand}`);
    return { settings: s.settings, message: done.length ? done.join(", and ") : null };
  });
}

export function uninstallHook(dryRun: boolean): Step {
  return edit(dryRun, "no lore hook", (settings) => {
    const r = withoutHook(settings);
    return { settings: r.settings, message: r.removed === 0 ? null : "remove lore's PreToolUse hook" };
  });
}

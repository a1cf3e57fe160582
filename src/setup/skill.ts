/** Installs and removes the routing skill in Claude Code's skills folder. */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { skillFile } from "./claude-paths.ts";
import { SKILL_TEXT } from "./skill-text.ts";
import type { Step } from "./step.ts";

function current(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

export function installSkill(dryRun: boolean): Step {
  const file = skillFile();
  const had = current(file);
  if (had === SKILL_TEXT) return { status: "unchanged", message: `skill already installed: ${file}` };
  const verb = had === null ? "install" : "update";
  if (dryRun) return { status: "changed", message: `would ${verb} the skill: ${file}` };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, SKILL_TEXT);
  return { status: "changed", message: `${verb === "install" ? "installed" : "updated"} the skill: ${file}` };
}

export function uninstallSkill(dryRun: boolean): Step {
  const file = skillFile();
  if (!existsSync(file)) return { status: "unchanged", message: `no skill installed at ${file}` };
  if (dryRun) return { status: "changed", message: `would remove the skill: ${file}` };
  rmSync(file);
  const dir = dirname(file);
  // The folder is lore's own; anything else the user put in it stays.
  if (readdirSync(dir).length === 0) rmdirSync(dir);
  return { status: "changed", message: `removed the skill: ${file}` };
}

export type SkillState = "current" | "outdated" | "missing";

export function skillState(): SkillState {
  const had = current(skillFile());
  return had === null ? "missing" : had === SKILL_TEXT ? "current" : "outdated";
}

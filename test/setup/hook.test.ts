import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { gitInvocations, gitNudge } from "../../src/setup/git-nudge.ts";
import { preToolUseOutput } from "../../src/setup/hook-command.ts";
import { hookEntry, withHook, withoutHook } from "../../src/setup/hook-settings.ts";

const ROOT = join(import.meta.dir, "..", "..");
const bash = (command: string) => ({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });

describe("the PreToolUse nudge", () => {
  test("git blame points at lore_blame and lore_intent, without deciding permission", () => {
    const out = JSON.parse(preToolUseOutput(bash("git blame -L 10,20 src/app.ts")));
    expect(out.hookSpecificOutput.hookEventName).toBe("PreToolUse");
    expect(out.hookSpecificOutput.additionalContext).toContain("lore_blame");
    expect(out.hookSpecificOutput.additionalContext).toContain("lore_intent");
    expect(JSON.stringify(out)).not.toContain("permissionDecision");
    expect(Object.keys(out)).toEqual(["hookSpecificOutput"]);
  });

  test("git log of a file points at lore_history, git log -L at lore_intent, git shortlog at lore_contributors", () => {
    expect(gitNudge("git log --follow --oneline -- src/a.ts")).toContain("lore_history");
    expect(gitNudge("cd pkg && git -C .. --no-pager log -n 5 src/a.ts")).toContain("lore_history");
    expect(gitNudge("git log -L 5,9:src/a.ts")).toContain("lore_history {path, lines:");
    expect(gitNudge("git log -S needle -- a.ts")).toContain("lore_search {query, code: true");
    expect(gitNudge("git log -Gneed.e")).toContain("lore_search {query, code: true");
    expect(gitNudge("git log -i --grep=timeout")).toContain("lore_search {query}");
    expect(gitNudge("git shortlog -sn -- src")).toContain("lore_contributors");
    expect(gitNudge("git show 1a2b3c4")).toContain("lore_intent");
  });

  test("git commands lore does not answer get no nudge", () => {
    for (const cmd of ["git status", "git diff HEAD", "git log --oneline -5", "git log --author=bob", "git show HEAD:src/a.ts", "echo git blame", "gitk", "npm test"])
      expect({ cmd, nudge: gitNudge(cmd) }).toEqual({ cmd, nudge: undefined });
    expect(preToolUseOutput({ tool_name: "Read", tool_input: { file_path: "x" } })).toBe("");
    expect(preToolUseOutput("nonsense")).toBe("");
  });

  test("global options before the subcommand are skipped", () => {
    expect(gitInvocations("GIT_PAGER=cat git -c color.ui=never -C /x blame a.ts")).toEqual([{ sub: "blame", args: ["a.ts"] }]);
  });

  test("lore hook pretooluse reads the event on stdin and prints only the hook's JSON", () => {
    const script = `import { hookCommand } from ${JSON.stringify(join(ROOT, "src/setup/hook-command.ts"))}; process.exitCode = await hookCommand(["pretooluse"]);`;
    const run = (input: string) => spawnSync(process.execPath, ["-e", script], { input, encoding: "utf8", timeout: 20_000 });
    const hit = run(JSON.stringify(bash("git blame a.ts")));
    expect(hit.status).toBe(0);
    expect(JSON.parse(hit.stdout).hookSpecificOutput.additionalContext).toContain("lore_blame");
    const miss = run(JSON.stringify(bash("ls")));
    expect({ status: miss.status, stdout: miss.stdout }).toEqual({ status: 0, stdout: "" });
    const garbage = run("{{{");
    expect({ status: garbage.status, stdout: garbage.stdout }).toEqual({ status: 0, stdout: "" });
  });
});

describe("merging the hook into settings.json", () => {
  const cmd = "/opt/lore/bin/lore hook pretooluse";

  test("an entry from an older install path is replaced, not duplicated", () => {
    const old = withHook({}, "/old/place/lore hook pretooluse").settings;
    const r = withHook(old, cmd);
    expect(r.change).toBe("updated");
    expect((r.settings.hooks as any).PreToolUse).toEqual([{ matcher: "Bash", hooks: [hookEntry(cmd)] }]);
  });

  test("the caller's object is never changed, and other hooks in a shared group survive removal", () => {
    const settings = { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "audit.sh" }, hookEntry(cmd)] }] } };
    const snapshot = structuredClone(settings);
    const r = withoutHook(settings);
    expect(settings).toEqual(snapshot);
    expect(r.removed).toBe(1);
    expect(r.settings).toEqual({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "audit.sh" }] }] } });
  });

  test("settings of a shape lore does not understand are refused, not rewritten", () => {
    expect(() => withHook([], cmd)).toThrow(/not a JSON object/);
    expect(() => withHook({ hooks: { PreToolUse: {} } }, cmd)).toThrow(/not a list/);
  });
});

import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitInvocations, gitNudge } from "../../src/setup/git-nudge.ts";
import { preToolUseOutput } from "../../src/setup/hook-command.ts";
import { EDIT_MATCHER, hookEntry, snapshotEntry, withHook, withoutHook, withSnapshotHook } from "../../src/setup/hook-settings.ts";
import { snapshotTarget } from "../../src/setup/snapshot-hook.ts";
import { loreCommand } from "../helpers/lore-argv.ts";

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

  test("git log (with and without paths), git show and git diff A...B point at lore_log, lore_show and lore_compare", () => {
    expect(gitNudge("git log --oneline -5")).toContain("lore_log");
    expect(gitNudge("git log --stat -n 20 -- src/api/")).toContain("lore_log");
    expect(gitNudge("git log main..HEAD")).toContain("lore_log");
    expect(gitNudge("git log -n 5 src/a.ts")).toContain("lore_history");
    expect(gitNudge("git show 1a2b3c4 -- src/a.ts")).toContain("lore_show");
    expect(gitNudge("git show HEAD~5:src/a.ts")).toContain("lore_show");
    expect(gitNudge("git diff main...HEAD --stat")).toContain("lore_compare");
    expect(gitNudge("git diff origin/main..feature")).toContain("lore_compare");
  });

  test("git commands lore does not answer get no nudge", () => {
    for (const cmd of ["git status", "git diff HEAD", "git diff --stat", "echo git blame", "gitk", "npm test"])
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

describe("the snapshot-before-edit hook", () => {
  const snap = "/opt/lore/bin/lore hook snapshot";
  const nudge = "/opt/lore/bin/lore hook pretooluse";

  test("it joins the user's other PreToolUse hooks and the git nudge, once, and leaves with them", () => {
    const user = { hooks: { PreToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "prettier-check.sh" }] }], Stop: [{ hooks: [{ type: "command", command: "say done" }] }] } };
    const both = withSnapshotHook(withHook(user, nudge).settings, snap);
    expect(both.change).toBe("added");
    expect((both.settings.hooks as any).PreToolUse).toEqual([
      user.hooks.PreToolUse[0],
      { matcher: "Bash", hooks: [hookEntry(nudge)] },
      { matcher: EDIT_MATCHER, hooks: [snapshotEntry(snap)] },
    ]);
    expect(withSnapshotHook(both.settings, snap).change).toBe("unchanged");
    // Installed from another path: replaced, the nudge untouched.
    const moved = withSnapshotHook(both.settings, "/new/lore hook snapshot");
    expect(moved.change).toBe("updated");
    expect((moved.settings.hooks as any).PreToolUse.filter((g: any) => g.matcher === EDIT_MATCHER)).toEqual([{ matcher: EDIT_MATCHER, hooks: [snapshotEntry("/new/lore hook snapshot")] }]);
    expect(withoutHook(both.settings)).toEqual({ settings: user, removed: 2 });
  });

  test("the folder to snapshot is the edited file's (a new file's nearest existing folder), the note names the tool and file", () => {
    const cwd = realpathSync(tmpdir());
    expect(snapshotTarget({ cwd, tool_name: "Edit", tool_input: { file_path: `${cwd}/no/such/dir/a.ts` } })).toEqual({ dir: cwd, message: "before Edit no/such/dir/a.ts" });
    expect(snapshotTarget({ cwd, tool_name: "NotebookEdit", tool_input: { notebook_path: "n.ipynb" } })).toEqual({ dir: cwd, message: "before NotebookEdit n.ipynb" });
    expect(snapshotTarget("nonsense")).toBeUndefined();
  });

  test("lore hook snapshot takes a snapshot quietly, and never fails the edit", () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), "lore-hook-home-")));
    const repo = realpathSync(mkdtempSync(join(tmpdir(), "lore-hook-repo-")));
    try {
      spawnSync("git", ["init", "-q"], { cwd: repo });
      writeFileSync(join(repo, "a.ts"), "a\n");
      const env = { ...process.env, LORE_HOME: home, LORE_NO_DAEMON: "1" };
      const snapshot = loreCommand(["hook", "snapshot"]);
      const hook = (input: string, cwd = repo) => spawnSync(snapshot.command, snapshot.args, { cwd, input, env, encoding: "utf8", timeout: 20_000 });
      const event = { hook_event_name: "PreToolUse", cwd: repo, tool_name: "Write", tool_input: { file_path: join(repo, "a.ts"), content: "b\n" } };
      const r = hook(JSON.stringify(event));
      expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: "", stderr: "" });
      const snapshots = loreCommand(["snapshots", "--json"]);
      const list = spawnSync(snapshots.command, snapshots.args, { cwd: repo, env, encoding: "utf8" });
      expect(JSON.parse(list.stdout).snapshots.map((s: any) => s.message)).toEqual(["before Write a.ts"]);
      for (const bad of ["{{{", JSON.stringify({ ...event, cwd: "/", tool_input: { file_path: "/etc/hosts" } })]) {
        const b = hook(bad, "/");
        expect({ status: b.status, stdout: b.stdout }).toEqual({ status: 0, stdout: "" });
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(repo, { recursive: true, force: true });
    }
  });
});

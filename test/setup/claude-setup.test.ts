import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SKILL_TEXT } from "../../src/setup/skill-text.ts";
import { loreArgv, loreCommand, sourceArgv } from "../helpers/lore-argv.ts";
import { ClaudeHome, field } from "./claude-env.ts";

// Each `claude mcp get` starts Claude Code and health-checks lore mcp: about a second.
setDefaultTimeout(30_000);

let h: ClaudeHome;
/** What setup registers is the lore that runs it: the test binary, or bun and src/main.ts from source. */
const server = loreCommand(["mcp"]);
const fromSource = loreArgv().length > 1;
const hookCommand = (name: string) => [...loreArgv(), "hook", name].join(" ");
const skill = () => join(h.config, "skills", "lore", "SKILL.md");
const settings = () => join(h.config, "settings.json");
const claudeState = () => JSON.parse(readFileSync(join(h.config, ".claude.json"), "utf8"));

beforeAll(() => {
  h = new ClaudeHome();
});
afterAll(() => h.cleanup());

describe("lore setup with the real Claude Code CLI", () => {
  test("the pinned claude works offline in an isolated config folder", () => {
    const r = h.claude(["--version"]);
    expect(r.stdout).toContain("2.1.332");
  });

  test("--dry-run says what it would do and changes nothing", () => {
    const r = h.lore(["setup", "--dry-run", "--hook"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("would run: claude mcp add-json -s user lore");
    expect(r.stdout).toContain("would install the skill");
    expect(r.stdout).toContain("would add the PreToolUse hook");
    expect(h.claude(["mcp", "get", "lore"]).code).not.toBe(0);
    expect(existsSync(skill())).toBe(false);
    expect(existsSync(settings())).toBe(false);
  });

  test("setup registers an absolute command that Claude Code connects to, with alwaysLoad, and installs the skill", () => {
    const r = h.lore(["setup"]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.stdout.includes("Running from source")).toBe(fromSource);
    const get = h.claude(["mcp", "get", "lore"]);
    expect(get.code).toBe(0);
    expect(field(get.stdout, "Status")).toBe("✔ Connected");
    expect(field(get.stdout, "Command")).toBe(server.command);
    expect(field(get.stdout, "Args")).toBe(server.args.join(" "));
    expect(field(get.stdout, "Scope")).toMatch(/^User/);
    expect(claudeState().mcpServers.lore).toEqual({ type: "stdio", ...server, alwaysLoad: true });
    expect(readFileSync(skill(), "utf8")).toBe(SKILL_TEXT);
  });

  test("run from source, setup says there is no single binary and registers bun with src/main.ts", () => {
    const [bun, main] = sourceArgv();
    const r = spawnSync(bun, [main!, "setup", "--dry-run"], { cwd: h.dir, env: h.env(), encoding: "utf8", timeout: 50_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`Running from source, so there is no single lore binary: registering ${bun} ${main} mcp.`);
  });

  test("setup again changes nothing", () => {
    const before = JSON.stringify(claudeState().mcpServers);
    const r = h.lore(["setup"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Nothing to change");
    expect(r.stdout).not.toMatch(/^\+/m);
    expect(JSON.stringify(claudeState().mcpServers)).toBe(before);
  });

  // (doctor.test.ts replaces a registration that fails to connect.)
  test("a different registration, even one differing only by alwaysLoad, is replaced", () => {
    expect(h.claude(["mcp", "remove", "lore", "-s", "user"]).code).toBe(0);
    expect(h.claude(["mcp", "add-json", "-s", "user", "lore", JSON.stringify({ type: "stdio", ...server })]).code).toBe(0);
    const r = h.lore(["setup"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("removed the old MCP server");
    expect(field(h.claude(["mcp", "get", "lore"]).stdout, "Status")).toBe("✔ Connected");
    expect(claudeState().mcpServers.lore.alwaysLoad).toBe(true);
  });

  test("the hook merge keeps the user's settings, backs them up, and --uninstall restores them", () => {
    const original = {
      model: "opus",
      permissions: { allow: ["Bash(npm test)"], deny: [] },
      hooks: {
        PreToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "echo edit" }] }],
        PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo done" }] }],
      },
      someFutureSetting: { nested: [1, 2, 3] },
    };
    const originalText = JSON.stringify(original, null, 4) + "\n";
    writeFileSync(settings(), originalText);

    const r = h.lore(["setup", "--hook"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("added the PreToolUse hook");
    const merged = JSON.parse(readFileSync(settings(), "utf8"));
    expect(merged.model).toBe("opus");
    expect(merged.permissions).toEqual(original.permissions);
    expect(merged.someFutureSetting).toEqual(original.someFutureSetting);
    expect(merged.hooks.PostToolUse).toEqual(original.hooks.PostToolUse);
    expect(merged.hooks.PreToolUse[0]).toEqual(original.hooks.PreToolUse[0]);
    const ours = merged.hooks.PreToolUse[1];
    expect(ours.matcher).toBe("Bash");
    expect(ours.hooks[0]).toEqual({ type: "command", command: hookCommand("pretooluse"), if: "Bash(git *)", timeout: 10 });
    // Beside the user's own Edit hook, lore's snapshot before every edit.
    expect(merged.hooks.PreToolUse[2]).toEqual({ matcher: "Edit|Write|MultiEdit|NotebookEdit", hooks: [{ type: "command", command: hookCommand("snapshot"), timeout: 5 }] });
    expect(merged.hooks.PreToolUse.length).toBe(3);
    expect(readFileSync(settings() + ".lore-backup", "utf8")).toBe(originalText);

    const again = h.lore(["setup", "--hook"]);
    expect(again.stdout).toContain("Nothing to change");

    const un = h.lore(["setup", "--uninstall"]);
    expect(un.code).toBe(0);
    expect(JSON.parse(readFileSync(settings(), "utf8"))).toEqual(original);
  });

  test("--uninstall removed the MCP server and the skill, and a second one finds nothing to remove", () => {
    expect(h.claude(["mcp", "get", "lore"]).code).not.toBe(0);
    expect(existsSync(skill())).toBe(false);
    const r = h.lore(["setup", "--uninstall"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Nothing to remove");
  });

  test("settings.json that is not JSON is left alone, with a clear failure", () => {
    writeFileSync(settings(), "{ not json");
    const r = h.lore(["setup", "--hook"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("is not valid JSON");
    expect(readFileSync(settings(), "utf8")).toBe("{ not json");
    writeFileSync(settings(), "{}\n");
  });

  test("without claude on the PATH, setup says so and prints the config for other MCP clients", () => {
    const bin = join(h.dir, "empty-bin");
    mkdirSync(bin, { recursive: true });
    const r = h.lore(["setup"], h.dir, { PATH: bin });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("claude command is not on the PATH");
    const json = JSON.parse(r.stdout.split("\n").find((l) => l.startsWith('{"mcpServers"'))!);
    expect(json.mcpServers.lore).toEqual({ type: "stdio", ...server });
  });
});

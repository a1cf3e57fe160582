import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loreArgv, loreCommand } from "../helpers/lore-argv.ts";
import { AgentHome } from "./agent-env.ts";

setDefaultTimeout(60_000);

let h: AgentHome;
const f = (...p: string[]) => join(h.home, ...p);
const codexToml = () => f(".codex", "config.toml");
/** A stand-in client command: a shell script in the test's bin folder. */
const fake = (name: string, body: string) => {
  writeFileSync(join(h.bin, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(h.bin, name), 0o755);
};

beforeAll(() => {
  h = new AgentHome([]);
});
afterAll(() => h.cleanup());

describe("setup with config files it cannot edit: a clear failure, the file untouched, the other clients set up", () => {
  test("a config file that is a folder", () => {
    mkdirSync(f(".gemini", "settings.json"), { recursive: true });
    const r = h.lore(["setup", "--client", "gemini,cursor"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`✗ ${f(".gemini", "settings.json")}: is a folder, not a file`);
    expect(r.stdout).toContain(`+ added MCP server "lore" in ${f(".cursor", "mcp.json")}`);
    expect(lstatSync(f(".gemini", "settings.json")).isDirectory()).toBe(true);
    rmSync(f(".gemini"), { recursive: true });
  });

  test("a config file that is a symbolic link to a file elsewhere", () => {
    const elsewhere = join(h.dir, "dotfiles-mcp.json");
    writeFileSync(elsewhere, '{ "mcpServers": {} }\n');
    rmSync(f(".cursor"), { recursive: true, force: true });
    mkdirSync(f(".cursor"));
    symlinkSync(elsewhere, f(".cursor", "mcp.json"));
    const r = h.lore(["setup", "--client", "cursor"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${f(".cursor", "mcp.json")}: is a symbolic link to ${elsewhere}; lore does not write through links`);
    expect(readFileSync(elsewhere, "utf8")).toBe('{ "mcpServers": {} }\n');
    expect(lstatSync(f(".cursor", "mcp.json")).isSymbolicLink()).toBe(true);
    rmSync(f(".cursor"), { recursive: true });
  });

  test("malformed JSON and TOML are named with their line, and left byte for byte", () => {
    const zed = f(".config", "zed", "settings.json");
    mkdirSync(join(zed, ".."), { recursive: true });
    const badJson = '{\n  "theme": "One Dark",\n  "context_servers" {}\n}\n';
    writeFileSync(zed, badJson);
    mkdirSync(f(".codex"), { recursive: true });
    const badToml = 'model = "o3"\n[mcp_servers.docs\ncommand = "x"\n';
    writeFileSync(codexToml(), badToml);
    const r = h.lore(["setup", "--client", "zed,codex"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`✗ ${zed}, line 3: is not valid JSON (ColonExpected); lore left it as it is.`);
    expect(r.stdout).toContain(`✗ ${codexToml()}, line 2: is not valid TOML`);
    expect(readFileSync(zed, "utf8")).toBe(badJson);
    expect(readFileSync(codexToml(), "utf8")).toBe(badToml);
    const doctor = JSON.parse(h.lore(["doctor", "--json"]).stdout).checks.find((c: { name: string }) => c.name === "zed mcp");
    expect(doctor).toMatchObject({ status: "fail", fix: `repair ${zed} by hand, then lore setup --client zed` });
    rmSync(f(".config", "zed"), { recursive: true });
    rmSync(codexToml());
  });

  test("lore's block markers out of order in an instructions file", () => {
    const agents = f(".codex", "AGENTS.md");
    const text = "# Rules\n<!-- lore:end -->\nmine\n";
    writeFileSync(agents, text);
    const r = h.lore(["setup", "--client", "codex"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${agents}, line 2: has lore's block markers out of order`);
    expect(readFileSync(agents, "utf8")).toBe(text);
    rmSync(agents);
    expect(h.lore(["setup", "--uninstall", "--client", "codex"]).code).toBe(0);
  });

  test("an empty config file is filled, and --uninstall leaves it empty again", () => {
    const vscode = f(".config", "Code", "User", "mcp.json");
    mkdirSync(join(vscode, ".."), { recursive: true });
    writeFileSync(vscode, "");
    writeFileSync(codexToml(), "");
    expect(h.lore(["setup", "--client", "vscode,codex"]).code).toBe(0);
    expect(JSON.parse(readFileSync(vscode, "utf8")).servers.lore.type).toBe("stdio");
    expect(h.lore(["setup", "--uninstall", "--client", "vscode,codex"]).code).toBe(0);
    expect(readFileSync(vscode, "utf8")).toBe("");
    expect(readFileSync(codexToml(), "utf8")).toBe("");
    expect(existsSync(f(".codex", "AGENTS.md"))).toBe(false);
  });

  // root reads any file, so as root the test runs lore as nobody (util-linux's setpriv).
  const canBeUnreadable = process.getuid?.() !== 0 || spawnSync("setpriv", ["--help"]).status === 0;
  test.skipIf(!canBeUnreadable)("a config file lore cannot read", () => {
    const file = f(".cursor", "mcp.json");
    mkdirSync(f(".cursor"), { recursive: true });
    writeFileSync(file, '{ "mcpServers": {} }\n');
    chmodSync(file, 0o000);
    let r;
    if (process.getuid?.() === 0) {
      // As nobody, whose files these are.
      chmodSync(h.dir, 0o755);
      for (const p of [h.home, f(".cursor"), file, h.loreHome]) chownSync(p, 65534, 65534);
      const env = h.env();
      const out = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", ...loreArgv(), "setup", "--client", "cursor"], { cwd: "/", env, encoding: "utf8" });
      r = { code: out.status, stdout: out.stdout + out.stderr };
      for (const p of [h.home, f(".cursor"), file, h.loreHome]) chownSync(p, 0, 0);
      chmodSync(h.dir, 0o700);
    } else r = h.lore(["setup", "--client", "cursor"]);
    chmodSync(file, 0o644);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`✗ ${file}: cannot be read (permission denied); lore left it as it is`);
    expect(readFileSync(file, "utf8")).toBe('{ "mcpServers": {} }\n');
    rmSync(f(".cursor"), { recursive: true });
  });

  test("an unknown --client name is a usage error that lists the names", () => {
    const r = h.lore(["setup", "--client", "codex,emacs"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown client emacs: --client takes claude, codex, gemini, opencode, cursor, vscode, claude-desktop, zed");
  });
});

describe("a client command that fails or hangs", () => {
  test("codex exiting non-zero: the file is written all the same, and setup says codex did not confirm it", () => {
    fake("codex", 'echo "codex: config locked" >&2; exit 3');
    const r = h.lore(["setup", "--client", "codex"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("! codex mcp get lore did not confirm the entry (it exited with 3: codex: config locked); the config file is written all the same");
    expect(readFileSync(codexToml(), "utf8")).toContain("[mcp_servers.lore]");
    expect(h.lore(["setup", "--uninstall", "--client", "codex"]).code).toBe(0);
    rmSync(join(h.bin, "codex"));
  });

  test("claude hanging: setup gives up on it after the timeout and writes lore into Claude Code's own file; --uninstall takes it out", () => {
    fake("claude", "sleep 30");
    const state = f(".claude.json");
    writeFileSync(state, '{\n  "numStartups": 3,\n  "mcpServers": {}\n}\n');
    const started = Date.now();
    const r = h.lore(["setup", "--client", "claude"], { LORE_CLIENT_TIMEOUT_MS: "1500" });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`! claude mcp get lore failed: it did not answer in time; lore edits Claude Code's ${state} instead`);
    expect(JSON.parse(readFileSync(state, "utf8")).mcpServers.lore).toEqual({ type: "stdio", ...loreCommand(["mcp"]), alwaysLoad: true });
    expect(h.lore(["setup", "--uninstall", "--client", "claude"], { LORE_CLIENT_TIMEOUT_MS: "1500" }).code).toBe(0);
    expect(readFileSync(state, "utf8")).toBe('{\n  "numStartups": 3,\n  "mcpServers": {}\n}\n');
  });

  test("two setups at once: the second says the first is running and changes nothing", async () => {
    fake("claude", "sleep 30");
    const setup = loreCommand(["setup", "--client", "claude,cursor"]);
    const first = spawn(setup.command, setup.args, { cwd: h.dir, env: h.env({ LORE_CLIENT_TIMEOUT_MS: "4000" }), stdio: "ignore" });
    const lock = join(h.loreHome, "setup.lock");
    for (let i = 0; i < 100 && !existsSync(lock); i++) await Bun.sleep(50);
    const second = h.lore(["setup", "--client", "cursor"]);
    expect(second.code).toBe(1);
    expect(second.stdout).toContain(`another lore setup is running (pid ${first.pid}); wait for it to finish`);
    await new Promise((resolve) => first.on("exit", resolve));
    expect(existsSync(lock)).toBe(false);
    // A lock left by a setup that died is taken over.
    writeFileSync(lock, "999999999");
    expect(h.lore(["setup", "--client", "cursor"]).code).toBe(0);
    rmSync(join(h.bin, "claude"));
  });
});

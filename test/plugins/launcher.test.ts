/**
 * The plugins' launcher against a real release served on loopback: it runs the lore on the PATH only at
 * this version, else installs the release into the host's data folder after install.sh's checksum check,
 * says so on stderr, keeps stdout for the server, and runs the optional hooks only when turned on.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../../build/build-info.ts";
import { LAUNCHER, PLUGIN_DIR, readPackage } from "../../build/plugin-files.ts";
import { BUILD_TIMEOUT_MS, builtRelease } from "../build/built-release.ts";
import { serveRelease, type Fault, type ReleaseServer } from "../build/release-server.ts";
import { machinePath } from "../setup/agent-env.ts";
import { releaseLore } from "./plugin-env.ts";

setDefaultTimeout(60_000);

const version = readPackage().version;
let server: ReleaseServer;
let tmp: string;
/** A folder with a `lore` that says it is another version, for the PATH. */
let oldLore: string;

beforeAll(async () => {
  server = await serveRelease((await builtRelease()).dir);
  tmp = realpathSync(mkdtempSync(join(tmpdir(), "lore-launcher-")));
  oldLore = join(tmp, "old");
  mkdirSync(oldLore);
  writeFileSync(join(oldLore, "lore"), "#!/bin/sh\necho 'lore 0.0.1 (old)'\n", { mode: 0o755 });
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** The launcher as a host runs it: asynchronously, so this process's HTTP server can answer the download. */
async function launch(args: string[], env: Record<string, string>, fault: Fault = "ok") {
  const proc = Bun.spawn(["sh", join(ROOT, PLUGIN_DIR, LAUNCHER), ...args], {
    cwd: tmp,
    env: { PATH: machinePath(), HOME: tmp, LORE_HOME: join(tmp, "lore-home"), LORE_NO_DAEMON: "1", LORE_INSTALL_BASE_URL: server.url(fault), ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

const dataDir = (name: string) => join(tmp, name);

test("with no lore on the PATH it installs this version into CLAUDE_PLUGIN_DATA, saying so on stderr only, then runs it", async () => {
  const r = await launch(["--version"], { CLAUDE_PLUGIN_DATA: dataDir("claude") });
  expect(r.stdout).toStartWith(`lore ${version}`);
  expect(r.stderr).toContain(`lore plugin: lore is not on the PATH: installing lore ${version} into ${dataDir("claude")}/bin`);
  expect(r.stderr).not.toContain("Next:");
  expect(existsSync(join(dataDir("claude"), "bin", "lore"))).toBe(true);
  const again = await launch(["--version"], { CLAUDE_PLUGIN_DATA: dataDir("claude") });
  expect(again).toEqual({ code: 0, stdout: r.stdout, stderr: "" });
});

test("Codex's PLUGIN_DATA is used the same way, and an unexpanded ${…} is not taken for a folder", async () => {
  const r = await launch(["--version"], { PLUGIN_DATA: dataDir("codex"), LORE_PLUGIN_DATA: "${CLAUDE_PLUGIN_DATA}" });
  expect(r.stdout).toStartWith(`lore ${version}`);
  expect(existsSync(join(dataDir("codex"), "bin", "lore"))).toBe(true);
});

test("a lore of another version on the PATH is left alone: this version is installed beside the plugin", async () => {
  const r = await launch(["--version"], { PATH: `${oldLore}:${machinePath()}`, CLAUDE_PLUGIN_DATA: dataDir("old") });
  expect(r.stdout).toStartWith(`lore ${version}`);
  expect(r.stderr).toContain(`${oldLore}/lore is lore 0.0.1 (old), not lore ${version}`);
});

test("a lore of this version on the PATH is run as it is, with nothing downloaded", async () => {
  const bin = join(tmp, "current");
  mkdirSync(bin);
  symlinkSync(await releaseLore(), join(bin, "lore"));
  const r = await launch(["--version"], { PATH: `${bin}:${machinePath()}`, CLAUDE_PLUGIN_DATA: dataDir("unused") });
  expect(r).toMatchObject({ code: 0, stderr: "" });
  expect(existsSync(dataDir("unused"))).toBe(false);
});

test("a tampered archive fails the checksum check: nothing is installed and the error says why", async () => {
  const r = await launch(["mcp"], { CLAUDE_PLUGIN_DATA: dataDir("tampered") }, "tampered");
  expect(r.code).not.toBe(0);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain("checksum verification failed");
  expect(r.stderr).toContain(`lore plugin: could not install lore ${version}`);
  expect(existsSync(join(dataDir("tampered"), "bin", "lore"))).toBe(false);
});

test("the hooks do nothing unless the plugin's hook option is on, and never download", async () => {
  const event = JSON.stringify({ tool_name: "Bash", tool_input: { command: "git blame src/a.ts" } });
  const off = Bun.spawn(["sh", join(ROOT, PLUGIN_DIR, LAUNCHER), "hook", "pretooluse"], { stdin: new Blob([event]), stdout: "pipe", env: { PATH: machinePath(), CLAUDE_PLUGIN_DATA: dataDir("claude") } });
  expect([await new Response(off.stdout).text(), await off.exited]).toEqual(["", 0]);
  const on = Bun.spawn(["sh", join(ROOT, PLUGIN_DIR, LAUNCHER), "hook", "pretooluse"], {
    stdin: new Blob([event]),
    stdout: "pipe",
    env: { PATH: machinePath(), HOME: tmp, LORE_HOME: join(tmp, "lore-home"), CLAUDE_PLUGIN_DATA: dataDir("claude"), CLAUDE_PLUGIN_OPTION_HOOK: "true" },
  });
  expect(await new Response(on.stdout).text()).toContain("lore_blame");
  const none = await launch(["hook", "pretooluse"], { CLAUDE_PLUGIN_DATA: dataDir("no-lore"), CLAUDE_PLUGIN_OPTION_HOOK: "true" });
  expect(none).toEqual({ code: 0, stdout: "", stderr: "" });
  expect(existsSync(dataDir("no-lore"))).toBe(false);
});

/**
 * Claude Code installs lore from the repository's marketplace with its own commands, in a private HOME:
 * the validator passes in strict mode, the plugin's server connects (with lore on the PATH, and by
 * downloading the release when it is not), lore setup and doctor see the plugin, and uninstalling removes it.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MARKETPLACE, PLUGIN_DIR } from "../../build/plugin-files.ts";
import { serveRelease, type ReleaseServer } from "../build/release-server.ts";
import { builtRelease, BUILD_TIMEOUT_MS } from "../build/built-release.ts";
import { pathWithout, pluginEnv, type PluginEnv } from "./plugin-env.ts";

setDefaultTimeout(120_000);

let env: PluginEnv;
let server: ReleaseServer;
const ID = `lore@${MARKETPLACE}`;
const config = () => join(env.home.home, ".claude");
const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));

beforeAll(async () => {
  env = await pluginEnv(["claude"]);
  server = await serveRelease((await builtRelease()).dir);
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await server?.close();
  env?.cleanup();
});

test("claude plugin validate --strict passes the plugin and the marketplace", async () => {
  for (const dir of [join(env.repo, PLUGIN_DIR), env.repo]) {
    const r = await env.run("claude", ["plugin", "validate", "--strict", dir]);
    expect({ dir, code: r.code, out: r.stdout + r.stderr }).toMatchObject({ code: 0, out: expect.stringContaining("Validation passed") });
  }
});

test("the marketplace installs lore, whose server Claude Code lists as connected", async () => {
  const add = await env.run("claude", ["plugin", "marketplace", "add", env.repo]);
  expect(add.stdout + add.stderr).toContain(`Successfully added marketplace: ${MARKETPLACE}`);
  const install = await env.run("claude", ["plugin", "install", ID]);
  expect(install.stdout + install.stderr).toContain(`Successfully installed plugin: ${ID}`);
  const list = await env.run("claude", ["mcp", "list"]);
  expect(list.stdout).toMatch(/^plugin:lore:lore: sh \S+\/scripts\/launch\.sh mcp - ✔ Connected$/m);
});

test("claude plugin details counts the skill and the two commands, and the tokens they add to every session", async () => {
  const r = await env.run("claude", ["plugin", "details", ID]);
  expect(r.stdout).toMatch(/Skills \(3\)\s+lore, review, why/);
  expect(r.stdout).toMatch(/MCP servers \(1\)\s+lore/);
  const always = Number(/Always-on:\s+~(\d+) tok/.exec(r.stdout)?.[1]);
  // docs/agents.md states this figure; the MCP tools' own 8 KB budget is test/mcp/tool-budget.test.ts.
  expect(always).toBeLessThanOrEqual(300);
});

test("lore setup does not register lore a second time where the plugin is, and says so; lore doctor reports the plugin", async () => {
  const setup = env.lore(["setup", "--client", "claude"]);
  expect(setup.stdout).toContain(`lore is installed as the plugin ${ID}`);
  const list = await env.run("claude", ["mcp", "list"]);
  expect(list.stdout.match(/^\S*lore\S*:/gm)).toEqual(["plugin:lore:lore:"]);
  const doctor = JSON.parse(env.lore(["doctor", "--json"]).stdout);
  const checks = (doctor.checks ?? doctor) as { name: string; status: string; message: string }[];
  expect(checks.find((c) => c.name === "claude plugin")).toMatchObject({ status: "ok", message: expect.stringContaining(`plugin ${ID}`) });
});

test("without lore on the PATH the plugin's server installs the release into Claude Code's plugin data folder, checked against checksums.txt", async () => {
  const data = join(config(), "plugins", "data", `lore-${MARKETPLACE}`);
  const list = await env.run("claude", ["mcp", "list"], { PATH: pathWithout(env, "claude"), LORE_INSTALL_BASE_URL: server.url("ok") });
  expect(list.stdout).toMatch(/^plugin:lore:lore: .* - ✔ Connected$/m);
  expect(existsSync(join(data, "bin", "lore"))).toBe(true);
});

test("uninstalling the plugin and removing the marketplace take lore out of Claude Code", async () => {
  expect((await env.run("claude", ["plugin", "uninstall", ID])).code).toBe(0);
  expect((await env.run("claude", ["plugin", "marketplace", "remove", MARKETPLACE])).code).toBe(0);
  expect((await env.run("claude", ["mcp", "list"])).stdout).not.toContain("lore");
  const settings = readJson(join(config(), "settings.json"));
  expect(JSON.stringify(settings)).not.toContain("lore");
  expect(Object.keys(readJson(join(config(), "plugins", "installed_plugins.json")).plugins)).toEqual([]);
  expect(readdirSync(join(config(), "plugins", "data"))).toEqual([]);
  // Claude Code deletes a removed version's cache later, by itself: it marks the folder orphaned now.
  const cache = join(config(), "plugins", "cache", MARKETPLACE, "lore");
  for (const v of existsSync(cache) ? readdirSync(cache) : []) expect(existsSync(join(cache, v, ".orphaned_at"))).toBe(true);
  const doctor = env.lore(["doctor", "--json"]).stdout;
  expect(doctor).not.toContain("claude plugin");
});

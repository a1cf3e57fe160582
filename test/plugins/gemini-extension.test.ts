/**
 * Gemini CLI validates lore's extension, installs it from the repository folder with its own commands,
 * in a private HOME, and lists lore's server as connected with lore's context file; lore setup and
 * doctor see the extension; `gemini extensions uninstall` takes it out.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BUILD_TIMEOUT_MS } from "../build/built-release.ts";
import { pluginEnv, type PluginEnv } from "./plugin-env.ts";

setDefaultTimeout(120_000);

let env: PluginEnv;
const gemini = () => join(env.home.home, ".gemini");

beforeAll(async () => {
  env = await pluginEnv(["gemini"]);
}, BUILD_TIMEOUT_MS);

afterAll(() => env?.cleanup());

test("gemini extensions validate passes the repository folder", async () => {
  const r = await env.run("gemini", ["extensions", "validate", env.repo]);
  expect({ code: r.code, out: r.stdout + r.stderr }).toMatchObject({ code: 0, out: expect.stringContaining("has been successfully validated") });
});

test("gemini extensions install copies lore in, and gemini mcp list shows its server connected", async () => {
  const install = await env.run("gemini", ["extensions", "install", env.repo, "--consent"]);
  expect(install.stdout + install.stderr).toContain('Extension "lore" installed successfully');
  const list = await env.run("gemini", ["mcp", "list"]);
  expect(list.stdout + list.stderr).toMatch(/✓ lore \(from lore\): sh \S+launch\.sh mcp \(stdio\) - Connected/);
  const listed = await env.run("gemini", ["extensions", "list"]);
  expect(listed.stdout + listed.stderr).toContain(join("plugins", "lore", "GEMINI.md"));
});

test("lore setup leaves Gemini CLI's settings alone where the extension is, and lore doctor reports it", () => {
  const settings = join(gemini(), "settings.json");
  const before = existsSync(settings) ? readFileSync(settings, "utf8") : null;
  const setup = env.lore(["setup", "--client", "gemini"]);
  expect(setup.stdout).toContain("lore is installed as the extension lore");
  expect(existsSync(settings) ? readFileSync(settings, "utf8") : null).toBe(before);
  const checks = JSON.parse(env.lore(["doctor", "--json"]).stdout).checks as { name: string; status: string }[];
  expect(checks.find((c) => c.name === "gemini plugin")?.status).toBe("ok");
});

test("gemini extensions uninstall takes lore out of Gemini CLI", async () => {
  expect((await env.run("gemini", ["extensions", "uninstall", "lore"])).code).toBe(0);
  expect(existsSync(join(gemini(), "extensions", "lore"))).toBe(false);
  const list = await env.run("gemini", ["mcp", "list"]);
  expect(list.stdout + list.stderr).not.toContain("lore");
});

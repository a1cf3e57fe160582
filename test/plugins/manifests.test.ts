/** Every plugin manifest is what `npm run plugins` writes from the code and package.json, so no two of them can disagree. */
import { afterAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { ROOT } from "../../build/build-info.ts";
import { EXECUTABLES, MCP_NAME, PLUGIN_DIR, pluginFiles } from "../../build/plugin-files.ts";
import { driftedFiles } from "../../build/plugins.ts";
import { toolListings } from "../../src/mcp/tools.ts";
import { INSTRUCTIONS_TEXT } from "../../src/setup/instructions-text.ts";
import { SKILL_TEXT } from "../../src/setup/skill-text.ts";
import { tempDir } from "../helpers/git-repo.ts";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const json = (path: string) => JSON.parse(read(path));
const scratch = tempDir("lore-plugin-manifests-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test("the committed plugin files are what npm run plugins writes now", () => {
  expect(driftedFiles()).toEqual([]);
});

test("a manifest edited by hand is found: its version no longer matches package.json's", () => {
  const path = `${PLUGIN_DIR}/.claude-plugin/plugin.json`;
  for (const [p, text] of Object.entries(pluginFiles())) {
    mkdirSync(dirname(join(scratch, p)), { recursive: true });
    writeFileSync(join(scratch, p), p === path ? text.replace(`"version": "${pkg.version}"`, '"version": "9.9.9"') : text);
  }
  expect(driftedFiles(scratch)).toEqual([path]);
});

test("every manifest states package.json's version, and the ones with a description its description", () => {
  const manifests = [".claude-plugin/marketplace.json", "gemini-extension.json", "server.json", `${PLUGIN_DIR}/.claude-plugin/plugin.json`, `${PLUGIN_DIR}/plugin.json`];
  const versions = manifests.flatMap((m) => {
    const j = json(m);
    return [j.version, ...(j.plugins ?? []).map((p: { version: string }) => p.version), ...(j.packages ?? []).map((p: { version: string }) => p.version)].filter(Boolean);
  });
  expect(new Set(versions)).toEqual(new Set([pkg.version]));
  for (const m of manifests.filter((m) => m !== "server.json")) expect(JSON.stringify(json(m))).toContain(JSON.stringify(pkg.description));
});

test("server.json passes the MCP Registry's published schema, and package.json carries its name as mcpName", () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(JSON.parse(read("test/plugins/fixtures/mcp-registry-server.schema.json")));
  const server = json("server.json");
  expect({ valid: validate(server), errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
  expect(validate({ ...server, description: "x".repeat(101) })).toBe(false);
  expect(server.name).toBe(MCP_NAME);
  expect(pkg.mcpName).toBe(MCP_NAME);
});

test("the plugin's skill and context file are lore setup's own texts, and the skill names every MCP tool", () => {
  expect(read(`${PLUGIN_DIR}/skills/lore/SKILL.md`)).toBe(SKILL_TEXT);
  expect(read(`${PLUGIN_DIR}/GEMINI.md`)).toBe(INSTRUCTIONS_TEXT + "\n");
  const named = new Set(SKILL_TEXT.match(/lore_[a-z]+/g));
  expect(toolListings().map((t) => t.name).filter((n) => !named.has(n))).toEqual([]);
});

test("the plugin's install.sh is the repository's, and git keeps the scripts executable", () => {
  expect(read(`${PLUGIN_DIR}/scripts/install.sh`)).toBe(read("install.sh"));
  const modes = spawnSync("git", ["ls-files", "-s", "--", ...EXECUTABLES], { cwd: ROOT, encoding: "utf8" }).stdout.trim().split("\n");
  expect(modes.map((l) => l.split(/\s+/)[0])).toEqual(EXECUTABLES.map(() => "100755"));
});

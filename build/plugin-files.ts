/**
 * Every file of lore's agent plugins, from the code and package.json: Claude Code's marketplace and
 * plugin (which Codex reads too), the Agent Plugins manifest, the Gemini CLI extension and the MCP Registry's
 * server.json. `npm run plugins` writes them; a test fails while a committed one differs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EDIT_MATCHER, hookEntry, snapshotEntry } from "../src/setup/hook-settings.ts";
import { INSTRUCTIONS_TEXT } from "../src/setup/instructions-text.ts";
import { SERVER_NAME } from "../src/setup/register-mcp.ts";
import { SKILL_TEXT } from "../src/setup/skill-text.ts";
import { SLASH_COMMANDS } from "../src/setup/slash-commands.ts";
import { ROOT } from "./build-info.ts";
import { HOMEPAGE } from "./homebrew.ts";
import { LAUNCHER_PACKAGE } from "./npm-packages.ts";
import { geminiFiles } from "./plugin-gemini.ts";

/** The plugin's folder in the repository; the marketplaces point at it. */
export const PLUGIN_DIR = "plugins/lore";
/** The marketplace's name: `claude plugin install lore@lore-dev`, `codex plugin add lore@lore-dev`. */
export const MARKETPLACE = "lore-dev";
export const MCP_NAME = "io.github.lore-dev/lore";
export const LAUNCHER = "scripts/launch.sh";

export interface Package {
  version: string;
  description: string;
  license: string;
}

export function readPackage(): Package {
  return JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Package;
}

const json = (value: unknown) => JSON.stringify(value, null, 2) + "\n";
const author = { name: "lore-dev", url: HOMEPAGE };

/** The hooks `lore setup --hook` adds, run through the launcher, which does nothing unless the plugin's `hook` option is on. */
function claudeHooks(): unknown {
  const run = (kind: string) => `sh "\${CLAUDE_PLUGIN_ROOT}/${LAUNCHER}" hook ${kind}`;
  return {
    description: "lore's optional hooks (plugin option `hook`, off by default): point git blame/log/show at lore, snapshot the work tree before each edit",
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [hookEntry(run("pretooluse"))] }, { matcher: EDIT_MATCHER, hooks: [snapshotEntry(run("snapshot"))] }] },
  };
}

/** A slash command as Claude Code (and Codex, which turns plugin commands into skills) reads it. */
function commandFile(c: (typeof SLASH_COMMANDS)[number]): string {
  return `---\ndescription: ${c.description}\nargument-hint: ${c.argumentHint}\n---\n\n${c.prompt}\n`;
}

function claudePlugin(pkg: Package): Record<string, string> {
  const manifest = {
    name: "lore",
    version: pkg.version,
    description: pkg.description,
    author,
    homepage: HOMEPAGE,
    repository: HOMEPAGE,
    license: pkg.license,
    keywords: ["git", "history", "blame", "mcp", "code-review"],
    userConfig: {
      hook: {
        type: "boolean",
        title: "Hooks: nudge from git to lore, snapshot before edits",
        description: "Adds lore's PreToolUse hooks (as lore setup --hook does): git blame/log/show get a hint naming the lore tool that answers faster, and the work tree is snapshotted before each edit (lore_changes, lore_restore).",
        default: false,
      },
    },
  };
  // alwaysLoad: Claude Code otherwise defers MCP tools until the model searches for them (register-mcp.ts).
  const mcp = { mcpServers: { [SERVER_NAME]: { command: "sh", args: [`\${CLAUDE_PLUGIN_ROOT}/${LAUNCHER}`, "mcp"], alwaysLoad: true } } };
  const files: Record<string, string> = {
    ".claude-plugin/plugin.json": json(manifest),
    ".mcp.json": json(mcp),
    "hooks/hooks.json": json(claudeHooks()),
  };
  for (const c of SLASH_COMMANDS) files[`commands/${c.name}.md`] = commandFile(c);
  return files;
}

/**
 * The vendor-neutral Agent Plugins 1.0.0 layout: plugin.json, mcp.json and skills/ at the plugin's root.
 * Codex reads this one (and Claude Code's marketplace): it starts the server in the plugin's folder with
 * $PLUGIN_ROOT and $PLUGIN_DATA set, where a `./` path resolves; its own .codex-plugin format resolves none.
 */
function agentPlugin(pkg: Package): Record<string, string> {
  const manifest = { $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", name: "lore", version: pkg.version, description: pkg.description, license: pkg.license, homepage: HOMEPAGE };
  const mcp = { $schema: "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", mcpServers: { [SERVER_NAME]: { type: "stdio", command: "sh", args: [`./${LAUNCHER}`, "mcp"] } } };
  return { "plugin.json": json(manifest), "mcp.json": json(mcp) };
}

/** The release's launcher, and install.sh beside it (the same bytes as the repository's). */
function scripts(pkg: Package): Record<string, string> {
  const launch = readFileSync(join(ROOT, "build/plugin/launch.sh"), "utf8").replace("@VERSION@", pkg.version);
  return { [LAUNCHER]: launch, "scripts/install.sh": readFileSync(join(ROOT, "install.sh"), "utf8") };
}

function marketplaces(pkg: Package): Record<string, string> {
  const entry = { name: "lore", source: `./${PLUGIN_DIR}`, description: pkg.description, version: pkg.version, author, homepage: HOMEPAGE, license: pkg.license, category: "development" };
  const claude = { name: MARKETPLACE, owner: author, metadata: { description: "lore: git history answers for coding agents" }, plugins: [entry] };
  return { ".claude-plugin/marketplace.json": json(claude) };
}

/** The MCP Registry's entry: the npm launcher package, run as `lore mcp`. */
function serverJson(pkg: Package): string {
  return json({
    $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
    name: MCP_NAME,
    title: "lore",
    description: "Git history for coding agents: blame, intent, co-change, review, from an index",
    repository: { url: HOMEPAGE, source: "github" },
    version: pkg.version,
    websiteUrl: HOMEPAGE,
    packages: [{ registryType: "npm", identifier: LAUNCHER_PACKAGE, version: pkg.version, transport: { type: "stdio" }, packageArguments: [{ type: "positional", value: "mcp" }] }],
  });
}

/** Every generated file, by its path from the repository root. */
export function pluginFiles(pkg: Package = readPackage()): Record<string, string> {
  const inPlugin: Record<string, string> = {
    ...claudePlugin(pkg),
    ...agentPlugin(pkg),
    ...scripts(pkg),
    "skills/lore/SKILL.md": SKILL_TEXT,
    "GEMINI.md": INSTRUCTIONS_TEXT + "\n",
  };
  const files: Record<string, string> = {};
  for (const [path, text] of Object.entries(inPlugin)) files[`${PLUGIN_DIR}/${path}`] = text;
  return { ...files, ...marketplaces(pkg), ...geminiFiles(pkg, PLUGIN_DIR, LAUNCHER), "server.json": serverJson(pkg) };
}

/** The generated files that must be executable. */
export const EXECUTABLES = [`${PLUGIN_DIR}/${LAUNCHER}`, `${PLUGIN_DIR}/scripts/install.sh`];

/**
 * The Gemini CLI extension: gemini-extension.json at the repository's root (where `gemini extensions
 * install <repo>` and the extension gallery look for it), its server and context file in the plugin folder.
 */

/** `${extensionPath}` and `${/}` are Gemini CLI's own variables: the extension's folder, the path separator. */
export function geminiFiles(pkg: { version: string; description: string }, pluginDir: string, launcher: string): Record<string, string> {
  const at = (path: string) => ["${extensionPath}", ...pluginDir.split("/"), ...path.split("/")].join("${/}");
  const manifest = {
    name: "lore",
    version: pkg.version,
    description: pkg.description,
    mcpServers: { lore: { command: "sh", args: [at(launcher), "mcp"] } },
    contextFileName: `${pluginDir}/GEMINI.md`,
  };
  return { "gemini-extension.json": JSON.stringify(manifest, null, 2) + "\n" };
}

/** `npm run plugins`: writes lore's plugin manifests (build/plugin-files.ts) into the repository; `--check` only says which differ. */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT } from "./build-info.ts";
import { EXECUTABLES, pluginFiles } from "./plugin-files.ts";

/** The generated files whose committed text differs from what the generator writes now. */
export function driftedFiles(root = ROOT): string[] {
  return Object.entries(pluginFiles())
    .filter(([path, text]) => !existsSync(join(root, path)) || readFileSync(join(root, path), "utf8") !== text)
    .map(([path]) => path);
}

if (import.meta.main) {
  const check = process.argv.includes("--check");
  const drifted = driftedFiles();
  if (check) {
    for (const p of drifted) console.error(`differs from the generator: ${p} (npm run plugins rewrites it)`);
    process.exit(drifted.length ? 1 : 0);
  }
  for (const [path, text] of Object.entries(pluginFiles())) {
    const file = join(ROOT, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  for (const path of EXECUTABLES) chmodSync(join(ROOT, path), 0o755);
  console.error(drifted.length ? `wrote ${drifted.join(", ")}` : "the plugin files were current");
}

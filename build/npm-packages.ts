/**
 * The npm packages `npm run release` writes: one per platform with its binary (os and cpu set, so
 * npm installs only the one that fits) and a small launcher, @lore-dev/lore, whose `bin` runs it.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./build-info.ts";
import { HOMEPAGE } from "./homebrew.ts";
import { tarGz } from "./tar-gz.ts";
import type { Target } from "./targets.ts";

export const NPM_SCOPE = "@lore-dev";
export const LAUNCHER_PACKAGE = `${NPM_SCOPE}/lore`;

export function platformPackage(t: Target): string {
  return `${NPM_SCOPE}/lore-${t.os}-${t.arch}`;
}

/** The file name npm pack gives a package: the scope's @ dropped, / as -. */
export function tarballName(name: string, version: string): string {
  return `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
}

const common = (version: string) => ({ version, license: "MIT", homepage: HOMEPAGE, repository: { type: "git", url: `git+${HOMEPAGE}.git` } });

/** A platform's package, written as npm pack writes one (every file under package/): the binary compressed once, here, on zlib's threads. */
export async function platformTarball(t: Target, version: string, binary: Uint8Array, mtime: number): Promise<{ name: string; data: Uint8Array }> {
  const manifest = {
    name: platformPackage(t),
    ...common(version),
    description: `The lore binary for ${t.os}/${t.arch}: install ${LAUNCHER_PACKAGE}, which picks it.`,
    os: [t.os],
    cpu: [t.arch],
    preferUnplugged: true,
  };
  const data = await tarGz(
    [
      { name: "package/package.json", data: Buffer.from(JSON.stringify(manifest, null, 2) + "\n"), mode: 0o644 },
      { name: "package/bin/lore", data: binary, mode: 0o755 },
      ...(existsSync(join(ROOT, "LICENSE")) ? [{ name: "package/LICENSE", data: readFileSync(join(ROOT, "LICENSE")), mode: 0o644 }] : []),
    ],
    mtime,
  );
  return { name: tarballName(manifest.name, version), data };
}

/** The launcher, packed by npm pack itself into outDir; returns the tarball's file name. */
/** `mcpName`: the MCP Registry lists lore under the name the published launcher package states (server.json). */
export function launcherTarball(targets: readonly Target[], version: string, description: string, outDir: string, mcpName?: string): string {
  const dir = mkdtempSync(join(tmpdir(), "lore-npm-"));
  try {
    mkdirSync(join(dir, "bin"));
    copyFileSync(join(ROOT, "build/npm/lore.js"), join(dir, "bin/lore.js"));
    const manifest = {
      name: LAUNCHER_PACKAGE,
      ...common(version),
      description,
      ...(mcpName ? { mcpName } : {}),
      bin: { lore: "bin/lore.js" },
      files: ["bin/lore.js"],
      optionalDependencies: Object.fromEntries(targets.map((t) => [platformPackage(t), version])),
      engines: { node: ">=18" },
    };
    writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
    writeFileSync(join(dir, "README.md"), `# ${LAUNCHER_PACKAGE}\n\n${description}\n\n\`npm install -g ${LAUNCHER_PACKAGE}\`, then \`lore --help\`. Documentation: ${HOMEPAGE}\n`);
    for (const f of ["LICENSE"]) if (existsSync(join(ROOT, f))) copyFileSync(join(ROOT, f), join(dir, f));
    const out = execFileSync("npm", ["pack", "--silent", "--pack-destination", outDir, dir], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    return out.trim().split("\n").pop()!;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

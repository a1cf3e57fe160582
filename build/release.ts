/**
 * `npm run release`: one lore_<version>_<os>_<arch>.tar.gz per platform, a checksums.txt and the
 * Homebrew formula lore.rb, in dist/release (or --out DIR), and the npm packages in its npm/ folder
 * (--base-url: where the formula says the archives are; default the GitHub release).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ROOT, buildInfo } from "./build-info.ts";
import { compile } from "./bun-compile.ts";
import { FORMULA_FILE, formula, releaseBaseUrl } from "./homebrew.ts";
import { launcherTarball, platformTarball } from "./npm-packages.ts";
import { tarGz, type TarEntry } from "./tar-gz.ts";
import { RELEASE_TARGETS, archiveName, bunTarget, type Target } from "./targets.ts";

const { values } = parseArgs({ options: { out: { type: "string" }, "base-url": { type: "string" } } });
const outDir = resolve(values.out ?? join(ROOT, "dist/release"));
const info = buildInfo();
const npmDir = join(outDir, "npm");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { description: string; mcpName?: string };
const work = mkdtempSync(join(tmpdir(), "lore-release-"));

// Only our own artefacts are cleared: --out may name a folder that holds other things.
mkdirSync(outDir, { recursive: true });
for (const name of readdirSync(outDir)) {
  if (/^lore_.*\.tar\.gz$/.test(name) || name === "checksums.txt" || name === FORMULA_FILE) rmSync(join(outDir, name));
}
rmSync(npmDir, { recursive: true, force: true });
mkdirSync(npmDir);

// Shipped beside the binary when the repository has them.
const extras: TarEntry[] = ["LICENSE", "README.md"]
  .filter((name) => existsSync(join(ROOT, name)))
  .map((name) => ({ name, data: readFileSync(join(ROOT, name)), mode: 0o644 }));

async function pack(target: Target): Promise<{ target: Target; name: string; sha256: string; bytes: number }> {
  const binary = join(work, bunTarget(target));
  await compile({ outfile: binary, info, target });
  const data = readFileSync(binary);
  rmSync(binary);
  // Both compress on zlib's threads at once: the archive for the script and brew, the package for npm.
  const [archive, npmPackage] = await Promise.all([tarGz([{ name: "lore", data, mode: 0o755 }, ...extras], info.time), platformTarball(target, info.version, data, info.time)]);
  const name = archiveName(info.version, target);
  writeFileSync(join(outDir, name), archive);
  writeFileSync(join(npmDir, npmPackage.name), npmPackage.data);
  return { target, name, sha256: createHash("sha256").update(archive).digest("hex"), bytes: archive.length };
}

const started = performance.now();
try {
  // All at once: compiles are mostly I/O on a cached runtime, and gzip runs on zlib's threads.
  const archives = await Promise.all(RELEASE_TARGETS.map(pack));
  archives.sort((a, b) => a.name.localeCompare(b.name));
  // The format `sha256sum -c` reads: hex, two spaces, file name.
  writeFileSync(join(outDir, "checksums.txt"), archives.map((a) => `${a.sha256}  ${a.name}\n`).join(""));
  const baseUrl = values["base-url"] ?? releaseBaseUrl(info.version);
  writeFileSync(join(outDir, FORMULA_FILE), formula({ version: info.version, baseUrl, archives }));
  const launcher = launcherTarball(RELEASE_TARGETS, info.version, pkg.description, npmDir, pkg.mcpName);
  console.error(`${FORMULA_FILE} (Homebrew, archives at ${baseUrl}); npm/: ${launcher} and one package per platform`);
  for (const a of archives) console.error(`${a.name}  ${(a.bytes / 1e6).toFixed(1)} MB`);
  const s = ((performance.now() - started) / 1000).toFixed(1);
  console.error(`released lore ${info.version} (${info.commit}) into ${outDir} in ${s} s`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

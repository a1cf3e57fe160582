/** `npm run release`: one lore_<version>_<os>_<arch>.tar.gz per platform and a checksums.txt, in dist/release (or --out DIR). */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ROOT, buildInfo } from "./build-info.ts";
import { compile } from "./bun-compile.ts";
import { tarGz, type TarEntry } from "./tar-gz.ts";
import { RELEASE_TARGETS, archiveName, bunTarget, type Target } from "./targets.ts";

const { values } = parseArgs({ options: { out: { type: "string" } } });
const outDir = resolve(values.out ?? join(ROOT, "dist/release"));
const info = buildInfo();
const work = mkdtempSync(join(tmpdir(), "lore-release-"));

// Only our own artefacts are cleared: --out may name a folder that holds other things.
mkdirSync(outDir, { recursive: true });
for (const name of readdirSync(outDir)) {
  if (/^lore_.*\.tar\.gz$/.test(name) || name === "checksums.txt") rmSync(join(outDir, name));
}

// Shipped beside the binary when the repository has them.
const extras: TarEntry[] = ["LICENSE", "README.md"]
  .filter((name) => existsSync(join(ROOT, name)))
  .map((name) => ({ name, data: readFileSync(join(ROOT, name)), mode: 0o644 }));

async function pack(target: Target): Promise<{ name: string; sha256: string; bytes: number }> {
  const binary = join(work, bunTarget(target));
  await compile({ outfile: binary, info, target });
  const entries = [{ name: "lore", data: readFileSync(binary), mode: 0o755 }, ...extras];
  const archive = await tarGz(entries, info.time);
  const name = archiveName(info.version, target);
  writeFileSync(join(outDir, name), archive);
  rmSync(binary);
  return { name, sha256: createHash("sha256").update(archive).digest("hex"), bytes: archive.length };
}

const started = performance.now();
try {
  // All at once: compiles are mostly I/O on a cached runtime, and gzip runs on zlib's threads.
  const archives = await Promise.all(RELEASE_TARGETS.map(pack));
  archives.sort((a, b) => a.name.localeCompare(b.name));
  // The format `sha256sum -c` reads: hex, two spaces, file name.
  writeFileSync(join(outDir, "checksums.txt"), archives.map((a) => `${a.sha256}  ${a.name}\n`).join(""));
  for (const a of archives) console.error(`${a.name}  ${(a.bytes / 1e6).toFixed(1)} MB`);
  const s = ((performance.now() - started) / 1000).toFixed(1);
  console.error(`released lore ${info.version} (${info.commit}) into ${outDir} in ${s} s`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** Takes lore's portable index files apart and puts them back together, for tests that craft bad ones. */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";

export interface IndexFile {
  manifest: Record<string, any>;
  /** The database's bytes, unpacked. */
  db: Buffer;
}

export function readIndexFile(path: string): IndexFile {
  const bytes = readFileSync(path);
  const a = bytes.indexOf(10);
  const b = bytes.indexOf(10, a + 1);
  const manifest = JSON.parse(bytes.subarray(a + 1, b).toString("utf8"));
  const payload = bytes.subarray(b + 1);
  return { manifest, db: manifest.compression === "gzip" ? gunzipSync(payload) : Buffer.from(payload) };
}

/** Writes an index file; the manifest's size and checksum fields are made to fit `db` unless `keep` names them. */
export function writeIndexFile(path: string, f: IndexFile, keep: string[] = []): void {
  const payload = f.manifest.compression === "gzip" ? gzipSync(f.db) : f.db;
  const fitted: Record<string, any> = { bytes: f.db.length, sha256: createHash("sha256").update(f.db).digest("hex"), payloadBytes: payload.length };
  const manifest = { ...f.manifest };
  for (const [k, v] of Object.entries(fitted)) if (!keep.includes(k)) manifest[k] = v;
  writeFileSync(path, Buffer.concat([Buffer.from(`lore-index 1\n${JSON.stringify(manifest)}\n`), payload]));
}

/** The one index.db under a LORE_HOME (tests use one repository per home). */
export function indexDbOf(home: string): string {
  const repos = join(home, "repos");
  const found = readdirSync(repos)
    .map((d) => join(repos, d, "index.db"))
    .filter((p) => {
      try {
        return statSync(p).isFile();
      } catch {
        return false;
      }
    });
  if (found.length !== 1) throw new Error(`expected one index under ${home}, found ${found.length}`);
  return found[0]!;
}

/** Every file under a folder, recursively (to look for a secret in all of LORE_HOME). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? (e as any).path, e.name));
}

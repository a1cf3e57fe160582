/**
 * `lore index export FILE|-`: the index at HEAD as one portable file — built first where a part is
 * missing, copied without this machine's paths or caches, checksummed, gzipped when that is smaller.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { IGNORE_REVS_FILE } from "../index/blame.ts";
import type { RepoIndex } from "../index/repo-index.ts";
import { ForeignIndex } from "../store/foreign-index.ts";
import { exportCopy } from "../store/index-copy.ts";
import { SCHEMA_VERSION } from "../store/schema.ts";
import { VERSION } from "../version.ts";
import { buildIndex } from "./build.ts";
import { headerOf, type Manifest } from "./manifest.ts";
import type { PhaseLog } from "./phase-log.ts";

/** sha-1 of a file's bytes, "" when there is none: the stamps of .mailmap and the ignore-revs file. */
export function fileStamp(path: string): string {
  try {
    return createHash("sha1").update(readFileSync(path)).digest("hex");
  } catch {
    return "";
  }
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Copies the header and then the payload file to stdout, waiting for each write (a pipe's reader may be slow). */
async function toStdout(header: Buffer, payload: string): Promise<void> {
  const write = (b: Buffer) => new Promise<void>((resolve, reject) => process.stdout.write(b, (err) => (err ? reject(err) : resolve())));
  await write(header);
  for await (const chunk of createReadStream(payload)) await write(chunk as Buffer);
}

/** Writes the export of `ix`'s index to `dest` ("-": stdout); returns its manifest. */
export async function exportIndex(ix: RepoIndex, dest: string, log: PhaseLog): Promise<Manifest> {
  await buildIndex(ix, log);
  log.begin();
  const base = `${ix.store.path}.export-${process.pid}`;
  const raw = `${base}.db`;
  const packed = `${base}.gz`;
  try {
    rmSync(raw, { force: true });
    exportCopy(ix.store.db, raw);
    // The copy is a snapshot: its own meta says what it holds (a daemon may have moved the live index since).
    const copy = ForeignIndex.open(raw);
    let head: string | undefined, commits: number, whole: boolean;
    try {
      head = copy.meta("indexedHead");
      commits = copy.reachCount();
      whole = copy.meta("historyWhole") === "1";
    } finally {
      copy.close();
    }
    if (!head) throw new Error("the index copy has no head");
    const bytes = statSync(raw).size;
    const sha256 = await sha256Of(raw);
    await pipeline(createReadStream(raw), createGzip({ level: 6 }), createWriteStream(packed));
    const gzip = statSync(packed).size < bytes;
    const payload = gzip ? packed : raw;
    const manifest: Manifest = {
      format: 1,
      lore: VERSION,
      schema: SCHEMA_VERSION,
      head,
      commits,
      whole,
      mailmap: fileStamp(join(ix.shared.primary.root, ".mailmap")),
      ignoreRevs: fileStamp(join(ix.repo.root, IGNORE_REVS_FILE)),
      compression: gzip ? "gzip" : "none",
      bytes,
      sha256,
      payloadBytes: statSync(payload).size,
      createdAt: new Date().toISOString(),
    };
    const header = headerOf(manifest);
    if (dest === "-") await toStdout(header, payload);
    else {
      // Written beside the destination, then renamed: a reader of FILE never sees half of it.
      const partial = `${dest}.partial-${process.pid}`;
      try {
        const out = createWriteStream(partial, { mode: 0o644 });
        out.write(header);
        await pipeline(createReadStream(payload), out);
        renameSync(partial, dest);
      } finally {
        rmSync(partial, { force: true });
      }
    }
    await log.done(`exported ${head.slice(0, 12)}: ${(manifest.payloadBytes + header.length).toLocaleString("en-US")} bytes (the index: ${bytes.toLocaleString("en-US")} bytes${gzip ? ", gzip" : ""})`);
    return manifest;
  } finally {
    rmSync(raw, { force: true });
    rmSync(packed, { force: true });
  }
}

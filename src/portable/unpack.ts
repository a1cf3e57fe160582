/**
 * Unpacks an index file's payload to a database file, never past the size its manifest gives (a
 * decompression bomb stops there), checking the sha-256 of what came out against the manifest's.
 */
import { createHash } from "node:crypto";
import { closeSync, createReadStream, openSync, readSync, writeFileSync, writeSync } from "node:fs";
import { createGunzip, gunzipSync } from "node:zlib";
import { LoreError } from "../errors.ts";
import type { Manifest } from "./manifest.ts";

const bad = (why: string) => new LoreError("BAD_INDEX_FILE", `This index file cannot be imported: ${why}. Nothing was changed.`);

/**
 * Up to this size the database is unpacked in memory in one call: one read, one inflate, one hash, one
 * write (express's 4 MB: ~45 ms of CPU against ~70 ms streamed in chunks); a larger one is streamed.
 */
const IN_MEMORY_BYTES = 128 * 1024 * 1024;

/** Writes the database held at `offset` of `file` to `dest` (a new file); BAD_INDEX_FILE when it is not what the manifest says. */
export async function unpack(file: string, offset: number, m: Manifest, dest: string, inMemory = IN_MEMORY_BYTES): Promise<void> {
  if (m.bytes <= inMemory && m.payloadBytes <= inMemory) return unpackInMemory(file, offset, m, dest);
  const input = createReadStream(file, { start: offset });
  const chunks: AsyncIterable<Buffer> = m.compression === "gzip" ? input.pipe(createGunzip()) : input;
  const hash = createHash("sha256");
  const fd = openSync(dest, "wx", 0o600);
  let n = 0;
  try {
    for await (const chunk of chunks) {
      n += chunk.length;
      if (n > m.bytes) throw bad(`it unpacks to more than the ${m.bytes.toLocaleString("en-US")} bytes its manifest gives`);
      hash.update(chunk);
      writeSync(fd, chunk);
    }
  } catch (err) {
    if (err instanceof LoreError) throw err;
    throw bad(`its content is damaged or cut short (${err instanceof Error ? err.message : String(err)})`);
  } finally {
    input.destroy();
    closeSync(fd);
  }
  checkWhole(n, hash.digest("hex"), m);
}

function checkWhole(n: number, sha256: string, m: Manifest): void {
  if (n !== m.bytes) throw bad(`it unpacks to ${n.toLocaleString("en-US")} bytes, not the ${m.bytes.toLocaleString("en-US")} its manifest gives (cut short?)`);
  if (sha256 !== m.sha256) throw bad("its checksum does not match its content (damaged in transit or altered)");
}

function unpackInMemory(file: string, offset: number, m: Manifest, dest: string): void {
  const payload = Buffer.allocUnsafe(m.payloadBytes);
  const fd = openSync(file, "r");
  let got = 0;
  try {
    for (let n = 1; n > 0 && got < payload.length; got += n) n = readSync(fd, payload, got, payload.length - got, offset + got);
  } finally {
    closeSync(fd);
  }
  let db: Buffer;
  try {
    // Never past the size the manifest gives: a decompression bomb stops there.
    db = m.compression === "gzip" ? gunzipSync(payload.subarray(0, got), { maxOutputLength: Math.max(1, m.bytes) }) : payload.subarray(0, got);
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw bad(`it unpacks to more than the ${m.bytes.toLocaleString("en-US")} bytes its manifest gives`);
    throw bad(`its content is damaged or cut short (${err instanceof Error ? err.message : String(err)})`);
  }
  checkWhole(db.length, createHash("sha256").update(db).digest("hex"), m);
  writeFileSync(dest, db, { flag: "wx", mode: 0o600 });
}

/**
 * Unpacks an index file's payload to a database file, never past the size its manifest gives (a
 * decompression bomb stops there), checking the sha-256 of what came out against the manifest's.
 */
import { createHash } from "node:crypto";
import { closeSync, createReadStream, openSync, writeSync } from "node:fs";
import { createGunzip } from "node:zlib";
import { LoreError } from "../errors.ts";
import type { Manifest } from "./manifest.ts";

const bad = (why: string) => new LoreError("BAD_INDEX_FILE", `This index file cannot be imported: ${why}. Nothing was changed.`);

/** Writes the database held at `offset` of `file` to `dest` (a new file); BAD_INDEX_FILE when it is not what the manifest says. */
export async function unpack(file: string, offset: number, m: Manifest, dest: string): Promise<void> {
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
  if (n !== m.bytes) throw bad(`it unpacks to ${n.toLocaleString("en-US")} bytes, not the ${m.bytes.toLocaleString("en-US")} its manifest gives (cut short?)`);
  if (hash.digest("hex") !== m.sha256) throw bad("its checksum does not match its content (damaged in transit or altered)");
}

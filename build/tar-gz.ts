/** Writes a .tar.gz of a few files with fixed owner, mode and time, so a release is byte-for-byte reproducible. */
import { promisify } from "node:util";
import { gzip } from "node:zlib";

// zlib's own thread pool, so several archives compress while the next target compiles.
const gzipAsync = promisify(gzip);

export interface TarEntry {
  name: string;
  data: Uint8Array;
  mode: number;
}

const BLOCK = 512;

// One ustar header: names stay under 100 bytes here, so no prefix or pax records are needed.
function header(entry: TarEntry, mtime: number): Uint8Array {
  const h = new Uint8Array(BLOCK);
  const put = (offset: number, length: number, text: string) => {
    const bytes = new TextEncoder().encode(text);
    if (bytes.length > length) throw new Error(`tar field too long: ${text}`);
    h.set(bytes, offset);
  };
  const octal = (offset: number, length: number, value: number) =>
    put(offset, length, value.toString(8).padStart(length - 1, "0") + "\0");
  put(0, 100, entry.name);
  octal(100, 8, entry.mode);
  octal(108, 8, 0); // uid
  octal(116, 8, 0); // gid
  octal(124, 12, entry.data.length);
  octal(136, 12, mtime);
  h.fill(0x20, 148, 156); // the checksum is computed with its own field as spaces
  put(156, 1, "0"); // regular file
  put(257, 6, "ustar\0");
  put(263, 2, "00");
  put(265, 32, "root");
  put(297, 32, "root");
  const sum = h.reduce((a, b) => a + b, 0);
  put(148, 8, sum.toString(8).padStart(6, "0") + "\0 ");
  return h;
}

export async function tarGz(entries: TarEntry[], mtime: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (const entry of entries) {
    parts.push(header(entry, mtime), entry.data);
    const pad = (BLOCK - (entry.data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(new Uint8Array(pad));
  }
  parts.push(new Uint8Array(BLOCK * 2)); // end of archive
  return gzipAsync(Buffer.concat(parts));
}

/**
 * An index file's payload unpacks to the same bytes in memory (files up to 128 MB) and streamed (larger
 * ones), and both refuse alike what is not what the manifest says: a bomb, a flipped byte, a cut stream.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/git-repo.ts";
import { writeIndexFile } from "../helpers/index-file.ts";
import { readHeader } from "../../src/portable/manifest.ts";
import { unpack } from "../../src/portable/unpack.ts";

let root = "";
let db: Buffer;
const manifest = { format: 1, lore: "test", schema: 1, head: "a".repeat(40), commits: 1, whole: true, mailmap: "", ignoreRevs: "", createdAt: "2026-12-04T00:00:00Z" };
/** In memory (the default), and streamed as a file over the limit is. */
const WAYS: [string, number | undefined][] = [
  ["in memory", undefined],
  ["streamed", 0],
];

function file(name: string, compression: "gzip" | "none", keep: string[] = [], bytes?: number): string {
  const path = join(root, `${name}.lore`);
  writeIndexFile(path, { manifest: { ...manifest, compression, ...(bytes === undefined ? {} : { bytes }) }, db }, keep);
  return path;
}

async function unpacked(path: string, inMemory: number | undefined, name: string): Promise<Buffer> {
  const { manifest: m, offset } = readHeader(path);
  const dest = join(root, `${name}-${inMemory ?? "mem"}.db`);
  await unpack(path, offset, m, dest, inMemory);
  return readFileSync(dest);
}

async function refusal(path: string, inMemory: number | undefined, name: string): Promise<string> {
  try {
    await unpacked(path, inMemory, name);
  } catch (err) {
    expect((err as { code?: string }).code).toBe("BAD_INDEX_FILE");
    return (err as Error).message;
  }
  throw new Error(`${name} was unpacked`);
}

beforeAll(() => {
  root = tempDir("lore-unpack-");
  // Half random (incompressible), half repeated text: several gzip blocks and stream chunks.
  db = Buffer.concat([randomBytes(300_000), Buffer.from("lore ".repeat(200_000))]);
});

describe.each(WAYS)("unpacked %s", (way, inMemory) => {
  test("gives the database's bytes, gzipped or not", async () => {
    expect((await unpacked(file("gz", "gzip"), inMemory, `gz-${way}`)).equals(db)).toBe(true);
    expect((await unpacked(file("plain", "none"), inMemory, `plain-${way}`)).equals(db)).toBe(true);
  });

  test("stops a decompression bomb at the size the manifest gives", async () => {
    expect(await refusal(file("bomb", "gzip", ["bytes"], 4096), inMemory, `bomb-${way}`)).toContain("more than the 4,096 bytes");
  });

  test("refuses a byte changed in transit, and a gzip stream cut or damaged", async () => {
    const plain = file("flip", "none");
    const bytes = readFileSync(plain);
    bytes[bytes.length - 1000] ^= 0xff;
    writeFileSync(plain, bytes);
    expect(await refusal(plain, inMemory, `flip-${way}`)).toContain("checksum");
    const gz = file("cut", "gzip");
    const whole = readFileSync(gz);
    // The last bytes of the payload (gzip's trailer and the end of the stream) zeroed: same length, no longer whole.
    whole.fill(0, whole.length - 64);
    writeFileSync(gz, whole);
    expect(await refusal(gz, inMemory, `cut-${way}`)).toMatch(/damaged|checksum|cut short|more than/);
  });
});

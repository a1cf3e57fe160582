/**
 * The portable index file: a magic line, one line of JSON (the manifest), then the index database
 * (gzip, or as is when that is no smaller). Reading it checks the header's shape before anything trusts it.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { LoreError } from "../errors.ts";

export const MAGIC = "lore-index 1";
/** The manifest is one line of JSON within this many bytes: a file whose header is larger is not one of ours. */
const MAX_HEADER = 64 * 1024;
const SHA = /^([0-9a-f]{40}|[0-9a-f]{64})$/;
const STAMP = /^([0-9a-f]{40})?$/;

export interface Manifest {
  format: 1;
  /** The lore that wrote it, and the schema of its database. */
  lore: string;
  schema: number;
  /** The commit the index is at (HEAD when it was exported). */
  head: string;
  /** Commits in its history. */
  commits: number;
  /** True when that history is whole: a full clone, no LORE_MAX_COMMITS cap, no damage. */
  whole: boolean;
  /** sha-1 of the .mailmap and .git-blame-ignore-revs the index was built with ("" when none). */
  mailmap: string;
  ignoreRevs: string;
  compression: "gzip" | "none";
  /** The database: its size and sha-256, checked as it is unpacked. */
  bytes: number;
  sha256: string;
  /** The bytes after the header (what a truncated file lacks). */
  payloadBytes: number;
  createdAt: string;
}

export function headerOf(m: Manifest): Buffer {
  return Buffer.from(`${MAGIC}\n${JSON.stringify(m)}\n`, "utf8");
}

const bad = (why: string) => new LoreError("BAD_INDEX_FILE", `This is not an index file lore can import: ${why}.`);

/** The manifest's fields, each of the expected type: a manifest is data from elsewhere. */
function checked(raw: unknown): Manifest {
  const m = raw as Record<string, unknown>;
  if (typeof m !== "object" || m === null || Array.isArray(m)) throw bad("its manifest is not a JSON object");
  const int = (k: string) => typeof m[k] === "number" && Number.isSafeInteger(m[k]) && (m[k] as number) >= 0;
  const str = (k: string, re?: RegExp) => typeof m[k] === "string" && (!re || re.test(m[k] as string));
  if (m.format !== 1) throw new LoreError("INDEX_TOO_NEW", `This index file has format ${JSON.stringify(m.format)}, which this lore does not read; upgrade lore (or export with the lore that imports it).`);
  const fields: [string, boolean][] = [
    ["lore", str("lore")],
    ["schema", int("schema")],
    ["head", str("head", SHA)],
    ["commits", int("commits")],
    ["whole", typeof m.whole === "boolean"],
    ["mailmap", str("mailmap", STAMP)],
    ["ignoreRevs", str("ignoreRevs", STAMP)],
    ["compression", m.compression === "gzip" || m.compression === "none"],
    ["bytes", int("bytes")],
    ["sha256", str("sha256", /^[0-9a-f]{64}$/)],
    ["payloadBytes", int("payloadBytes")],
    ["createdAt", str("createdAt")],
  ];
  const wrong = fields.find(([, ok]) => !ok);
  if (wrong) throw bad(`its manifest's ${wrong[0]} is missing or malformed`);
  return m as unknown as Manifest;
}

/** The manifest of the index file at `path` and where its payload starts; BAD_INDEX_FILE when it has none. */
export function readHeader(path: string): { manifest: Manifest; offset: number } {
  const fd = openSync(path, "r");
  const buf = Buffer.alloc(MAX_HEADER);
  let n: number;
  try {
    n = readSync(fd, buf, 0, MAX_HEADER, 0);
  } finally {
    closeSync(fd);
  }
  const first = buf.indexOf(10);
  if (first < 0 || buf.subarray(0, first).toString("latin1") !== MAGIC) throw bad(n === 0 ? "the file is empty" : `it does not start with "${MAGIC}"`);
  const second = buf.indexOf(10, first + 1);
  if (second < 0 || second >= n) throw bad("its manifest line is cut short or too long");
  let raw: unknown;
  try {
    raw = JSON.parse(buf.subarray(first + 1, second).toString("utf8"));
  } catch {
    throw bad("its manifest is not JSON");
  }
  return { manifest: checked(raw), offset: second + 1 };
}

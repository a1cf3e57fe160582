/**
 * Where `lore index import` reads from: a file, stdin (`-`), or an http(s) URL fetched with a plain GET
 * and the headers given (--header, LORE_INDEX_HEADER), which are never written anywhere, errors included.
 */
import { closeSync, existsSync, openSync, rmSync, statfsSync, statSync, writeSync } from "node:fs";
import { LoreError } from "../errors.ts";

export interface Source {
  /** A local file holding the index file's bytes. */
  path: string;
  /** True when `path` was made here (a download, stdin) and is removed after. */
  temporary: boolean;
}

/** Room left free on the disk that holds LORE_HOME, whatever an import would take. */
const RESERVE = 64 << 20;
const MAX_REDIRECTS = 5;

/** Bytes free on the disk holding `dir` for lore to use (a little always kept). */
export function freeBytes(dir: string): number {
  try {
    const s = statfsSync(dir);
    return Math.max(0, Number(s.bavail) * Number(s.bsize) - RESERVE);
  } catch {
    return Number.MAX_SAFE_INTEGER;
  }
}

/** A URL as errors may show it: scheme, host and path; never its query (a presigned URL's signature) nor credentials. */
export function shownUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** "Name: value" strings as headers; the value is never echoed back in an error. */
export function parseHeaders(given: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of given) {
    const colon = h.indexOf(":");
    const name = colon > 0 ? h.slice(0, colon).trim() : "";
    const value = colon > 0 ? h.slice(colon + 1).trim() : "";
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name) || /[\r\n\0]/.test(value))
      throw new LoreError("USAGE", `A header is written "Name: value" (such as "Authorization: Bearer …"); one given${name ? ` (${name})` : ""} is not.`);
    out[name] = value;
  }
  return out;
}

/** Writes what `chunks` yields to a new file at `path`, refusing to fill the disk; returns the byte count. */
async function spool(chunks: AsyncIterable<Uint8Array>, path: string, room: number, what: string): Promise<number> {
  const fd = openSync(path, "wx", 0o600);
  let n = 0;
  try {
    for await (const chunk of chunks) {
      n += chunk.length;
      if (n > room) throw new LoreError("INDEX_WRITE_FAILED", `${what} is larger than the ${room.toLocaleString("en-US")} bytes free for lore's folder; free some space (or point LORE_HOME at a disk with room). Nothing was changed.`);
      writeSync(fd, chunk);
    }
  } finally {
    closeSync(fd);
  }
  return n;
}

/** A GET that follows redirects itself, so the headers go to the origin they were given for and no further. */
async function get(url: URL, headers: Record<string, string>): Promise<Response> {
  let at = url;
  let send = headers;
  for (let hop = 0; ; hop++) {
    let res: Response;
    try {
      res = await fetch(at, { headers: send, redirect: "manual" });
    } catch (err) {
      throw new LoreError("INDEX_DOWNLOAD_FAILED", `lore could not reach ${shownUrl(at)}: ${err instanceof Error ? err.message : String(err)}. Nothing was changed.`);
    }
    const location = res.headers.get("location");
    if (res.status < 300 || res.status >= 400 || !location) return res;
    if (hop >= MAX_REDIRECTS) throw new LoreError("INDEX_DOWNLOAD_FAILED", `${shownUrl(url)} redirects more than ${MAX_REDIRECTS} times. Nothing was changed.`);
    const next = new URL(location, at);
    if (next.origin !== at.origin) send = {};
    at = next;
  }
}

/** The index file `source` names, as a local file: downloads and stdin go to `spoolPath` (in lore's folder for the repository). */
export async function openSource(source: string, headers: Record<string, string>, spoolPath: string, room: number): Promise<Source> {
  if (source === "-") {
    await spool(process.stdin as AsyncIterable<Uint8Array>, spoolPath, room, "The index file on stdin");
    return { path: spoolPath, temporary: true };
  }
  if (/^https?:\/\//i.test(source)) {
    let url: URL;
    try {
      url = new URL(source);
    } catch {
      throw new LoreError("BAD_ARGUMENT", "The index URL is not a valid URL.");
    }
    const res = await get(url, headers);
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => {});
      const hint = res.status === 401 || res.status === 403 ? " (give the storage's credentials with --header or LORE_INDEX_HEADER, or a presigned URL)" : "";
      throw new LoreError("INDEX_DOWNLOAD_FAILED", `GET ${shownUrl(url)} answered ${res.status}${res.statusText ? ` ${res.statusText}` : ""}${hint}. Nothing was changed.`);
    }
    const told = Number(res.headers.get("content-length"));
    if (told > room) throw new LoreError("INDEX_WRITE_FAILED", `The index file at ${shownUrl(url)} (${told.toLocaleString("en-US")} bytes) does not fit the ${room.toLocaleString("en-US")} bytes free for lore's folder. Nothing was changed.`);
    try {
      await spool(res.body as unknown as AsyncIterable<Uint8Array>, spoolPath, room, `The index file at ${shownUrl(url)}`);
    } catch (err) {
      rmSync(spoolPath, { force: true });
      if (err instanceof LoreError) throw err;
      throw new LoreError("INDEX_DOWNLOAD_FAILED", `The download of ${shownUrl(url)} was cut off (${err instanceof Error ? err.message : String(err)}). Nothing was changed.`);
    }
    return { path: spoolPath, temporary: true };
  }
  if (!existsSync(source)) throw new LoreError("BAD_ARGUMENT", `There is no file ${source} to import.`);
  if (!statSync(source).isFile()) throw new LoreError("BAD_ARGUMENT", `${source} is not a file; lore index import takes an index file, -, or an http(s) URL.`);
  return { path: source, temporary: false };
}

/** Reading the file on disk as git blame reads it: its bytes (a symlink's target name), its stamp, its blob id and lines. */
import { closeSync, fstatSync, lstatSync, openSync, readlinkSync, readSync, type Stats } from "node:fs";
import { createHash } from "node:crypto";
import { LoreError } from "../../errors.ts";

/** What says a file changed: inode, size, mtime, ctime, mode. */
export function stampOf(st: Stats): string {
  return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.mode}`;
}

/** A file's stamp without reading it; undefined when it is missing or a folder. */
export function quickStamp(full: string): string | undefined {
  try {
    const st = lstatSync(full);
    return st.isDirectory() ? undefined : stampOf(st);
  } catch {
    return undefined;
  }
}

/** git's object id of a blob with this content (SHA-1, or SHA-256 in a repository that uses it). */
export function blobId(content: Buffer, sha256: boolean): string {
  return createHash(sha256 ? "sha256" : "sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
}

/** Whether a tree entry's mode is a symlink's: git blame takes a symlink and a file for different types. */
export function isLinkMode(mode: string): boolean {
  return mode === "120000";
}

/** Lines as git counts them: a last line without its newline still counts. */
export function countLines(content: Buffer): number {
  let n = 0;
  for (let i = content.indexOf(10); i >= 0; i = content.indexOf(10, i + 1)) n++;
  return content.length > 0 && content[content.length - 1] !== 10 ? n + 1 : n;
}

export const READ_TRIES = 5;

/** The disk file's content as git blame reads it (a symlink is its target's name), the stamp it had throughout, and whether it is a symlink; undefined when there is no file. */
export function readDisk(full: string, path: string): { content: Buffer; stamp: string; link: boolean } | undefined {
  for (let i = 0; i < READ_TRIES; i++) {
    let before: Stats;
    try {
      before = lstatSync(full);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
      throw unreadable(path, err);
    }
    if (before.isDirectory()) return undefined;
    let content: Buffer;
    if (before.isSymbolicLink()) content = Buffer.from(readlinkSync(full, { encoding: "buffer" }));
    else if (before.isFile()) content = readFile(full, path);
    else throw new LoreError("NOT_A_FILE", `${path} is not a regular file on disk (a socket, a device or a pipe); git blame cannot read it either.`);
    // An editor saving meanwhile: read again until one stamp held from before to after.
    const after = lstatSync(full, { throwIfNoEntry: false });
    if (after && stampOf(after) === stampOf(before) && (before.isSymbolicLink() || content.length === before.size)) return { content, stamp: stampOf(before), link: before.isSymbolicLink() };
  }
  throw changing(path);
}

function readFile(full: string, path: string): Buffer {
  let fd: number;
  try {
    fd = openSync(full, "r");
  } catch (err) {
    throw unreadable(path, err);
  }
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.allocUnsafe(size + 1);
    let got = 0;
    for (;;) {
      // One byte more than the size: a file that grew meanwhile shows it.
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n <= 0) break;
      got += n;
      if (got === buf.length) break;
    }
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

function unreadable(path: string, err: unknown): LoreError {
  const code = (err as NodeJS.ErrnoException).code;
  return new LoreError("NOT_A_FILE", `lore cannot read ${path} on disk (${code ?? String(err)}); fix its permissions, or pass --until HEAD to ask about the committed version.`);
}

export function changing(path: string): LoreError {
  return new LoreError("GIT_FAILED", `${path} kept changing while lore read it (${READ_TRIES} times); ask again once it is saved.`);
}


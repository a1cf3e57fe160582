/**
 * Reading and writing the user's config files safely: a folder, a symbolic link, an unreadable
 * file is refused with a sentence that says so; a write goes to a temporary file in the same
 * folder and is renamed over the old one, keeping its mode, so no file is ever half-written.
 */
import { closeSync, fchmodSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, readlinkSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { ConfigError } from "./config-error.ts";

export interface FileText {
  /** null: there is no file. */
  text: string | null;
  mode: number;
}

const code = (err: unknown) => (err as NodeJS.ErrnoException)?.code;

/** The file's text, or null when it does not exist; throws ConfigError for what lore will not edit. */
export function readConfigText(file: string): FileText {
  let st;
  try {
    st = lstatSync(file);
  } catch (err) {
    if (code(err) === "ENOENT") return { text: null, mode: 0o644 };
    throw new ConfigError(file, `cannot look at it (${code(err) ?? String(err)})`);
  }
  if (st.isSymbolicLink()) {
    let target = "?";
    try {
      target = readlinkSync(file);
    } catch {}
    throw new ConfigError(file, `is a symbolic link to ${target}; lore does not write through links. Make the change in ${target} yourself (lore setup --dry-run shows it), or replace the link with a file`);
  }
  if (st.isDirectory()) throw new ConfigError(file, "is a folder, not a file; move it away and run lore setup again");
  if (!st.isFile()) throw new ConfigError(file, "is not a regular file");
  try {
    return { text: readFileSync(file, "utf8"), mode: st.mode & 0o7777 };
  } catch (err) {
    throw new ConfigError(file, code(err) === "EACCES" ? "cannot be read (permission denied); lore left it as it is" : `cannot be read (${code(err) ?? String(err)})`);
  }
}

/** Writes `text` whole or not at all: a temporary file beside `file`, flushed, then renamed over it. */
export function writeAtomic(file: string, text: string, mode: number): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = join(dirname(file), `.${basename(file)}.lore-${process.pid}.tmp`);
  try {
    const fd = openSync(tmp, "wx", mode);
    try {
      fchmodSync(fd, mode); // the umask does not get a say: the file keeps the mode it had
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new ConfigError(file, `could not be written (${code(err) ?? String(err)}); it is as it was`);
  }
}

export function removeFile(file: string): void {
  try {
    rmSync(file);
  } catch (err) {
    if (code(err) !== "ENOENT") throw new ConfigError(file, `could not be removed (${code(err) ?? String(err)})`);
  }
}

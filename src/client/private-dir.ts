/** The socket's folder: created readable by this user only, refused when someone else owns it. */
import { chmodSync, lstatSync, mkdirSync } from "node:fs";
import { LoreError } from "../errors.ts";
import { uid } from "./socket-path.ts";

/** Creates `dir` readable by this user only, and refuses one that someone else owns or that is a symlink. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.uid !== uid())
    throw new LoreError("DAEMON_UNAVAILABLE", `${dir} is not a folder of yours, so lore will not put its socket there; remove it or set LORE_HOME to a folder you own.`);
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

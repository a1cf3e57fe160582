/** The stamps of the files whose settings decide how git converts a file's line ends (core.autocrlf, .gitattributes text/eol). */
import { lstatSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

function stamp(file: string): string {
  try {
    const st = lstatSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return "-";
  }
}

/** The config and attribute files git reads for `path` (relative to the work tree `top`), each file's stamp joined: an edit to any is a new stamp. */
export function eolStamp(commonDir: string, top: string, path: string): string {
  const xdg = process.env.XDG_CONFIG_HOME || join(homedir(), ".config");
  const files = [join(commonDir, "config"), join(commonDir, "info", "attributes"), join(homedir(), ".gitconfig"), join(xdg, "git", "config"), join(xdg, "git", "attributes"), "/etc/gitconfig", "/etc/gitattributes"];
  const parts = path.split("/");
  for (let i = 0; i < parts.length; i++) files.push(join(top, ...parts.slice(0, i), ".gitattributes"));
  return files.map(stamp).join("|");
}

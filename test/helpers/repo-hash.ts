/** A fingerprint of a repository: every file of its work tree and its .git (index, refs, config, objects), by content. */
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";

export function repoHash(dir: string): string {
  const h = createHash("sha256");
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(dir, path));
      h.update(`${path}\0${st.mode}\0`);
      if (st.isDirectory()) walk(path);
      else if (st.isSymbolicLink()) h.update(readlinkSync(join(dir, path)));
      else h.update(readFileSync(join(dir, path)));
    }
  };
  walk("");
  return h.digest("hex");
}

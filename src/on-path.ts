/** Finding a program on the PATH, as a shell would: the first executable file of that name. */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

/** `name` on the PATH, or null. */
export function findOnPath(name: string, env: Record<string, string | undefined> = process.env): string | null {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {}
  }
  return null;
}

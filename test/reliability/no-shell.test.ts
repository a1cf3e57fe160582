/** Proof by reading the source: git runs only through src/git/run.ts and spool.ts, and nothing runs through a shell. */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const SRC = join(import.meta.dir, "..", "..", "src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

test("no source file starts a process through a shell", () => {
  for (const file of sources(SRC)) {
    const text = readFileSync(file, "utf8");
    expect({ file: relative(SRC, file), shell: /shell:\s*true/.test(text) }).toEqual({ file: relative(SRC, file), shell: false });
    // Of node:child_process only spawn is used (exec and execSync run a shell).
    const imported = [...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*"node:child_process"/g)].flatMap((m) => m[1]!.split(",").map((n) => n.trim()).filter(Boolean));
    expect({ file: relative(SRC, file), imported: imported.filter((n) => n !== "spawn") }).toEqual({ file: relative(SRC, file), imported: [] });
    expect({ file: relative(SRC, file), bunShell: /Bun\.\$|from "bun"\s*;?\s*$/m.test(text) && /\$`/.test(text) }).toEqual({ file: relative(SRC, file), bunShell: false });
  }
});

/** The two that start git, each with git's base arguments, environment and no programs: run.ts (read as it runs) and spool.ts (its output to a file read later). */
const RUNNERS = [join("git", "run.ts"), join("git", "spool.ts")];

test("git is started only by src/git/run.ts and spool.ts, with shell: false", () => {
  for (const file of sources(SRC)) {
    const text = readFileSync(file, "utf8");
    // run.ts starts git directly, or behind nice/ionice for background work: spawn(...launch("git", ...)).
    const startsGit = /spawn\(\s*(\.\.\.launch\(\s*)?"git"/.test(text);
    if (RUNNERS.includes(relative(SRC, file))) {
      expect(startsGit).toBe(true);
      expect((text.match(/shell: false/g) ?? []).length).toBe((text.match(/\bspawn\(/g) ?? []).length);
    } else expect({ file: relative(SRC, file), startsGit }).toEqual({ file: relative(SRC, file), startsGit: false });
  }
});

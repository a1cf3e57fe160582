/** A small real repository for the MCP tests: a few authors, a rename, a binary file, a file of many hunks; and git's own blame. */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

export function git(cwd: string, args: string[], env: Record<string, string> = {}): string {
  const r = spawnSync("git", args, { cwd, env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", LC_ALL: "C", ...env }, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

const PEOPLE = {
  alice: { GIT_AUTHOR_NAME: "Alice Example", GIT_AUTHOR_EMAIL: "alice@example.com" },
  bob: { GIT_AUTHOR_NAME: "Bob Example", GIT_AUTHOR_EMAIL: "bob@example.com" },
};

const numbered = (n: number, tag: (i: number) => string) => Array.from({ length: n }, (_, i) => tag(i + 1)).join("\n") + "\n";

export interface Fixture {
  dir: string;
  cleanup(): void;
}

/** Builds the repository with git commands; commit dates are fixed so runs are alike. */
export function buildRepo(dir = tempDir("lore-mcp-repo-")): Fixture {
  let tick = 0;
  const write = (path: string, content: string | Uint8Array) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  };
  const commit = (message: string, who: keyof typeof PEOPLE) => {
    const date = `${1_700_000_000 + ++tick * 3600} +0000`;
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-q", "-m", message], { ...PEOPLE[who], GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
  };
  git(dir, ["init", "-q", "-b", "main"]);
  git(dir, ["config", "user.name", "Committer"]);
  git(dir, ["config", "user.email", "committer@example.com"]);
  git(dir, ["config", "commit.gpgsign", "false"]);

  write("src/app.ts", numbered(12, (i) => `const a${i} = ${i};`));
  write("src/util.ts", numbered(6, (i) => `export const u${i} = ${i};`));
  write("docs/guide.md", "# Guide\n\nHow to use the app.\n");
  commit("Start the app", "alice");

  write("src/app.ts", numbered(12, (i) => (i >= 4 && i <= 6 ? `const a${i} = ${i} * 2; // doubled` : `const a${i} = ${i};`)));
  write("src/util.ts", numbered(6, (i) => `export const u${i} = ${i + 1};`));
  commit("Double the middle values\n\nThe totals were off by half: the middle three\nvalues must count twice (see issue 7).", "bob");

  git(dir, ["mv", "src/util.ts", "src/helpers.ts"]);
  commit("Rename util to helpers", "alice");

  write("assets/logo.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0, 1, 2, 3, 0, 255]));
  write("src/app.ts", numbered(13, (i) => (i >= 4 && i <= 6 ? `const a${i} = ${i} * 2; // doubled` : `const a${i} = ${i};`)));
  write("src/helpers.ts", numbered(7, (i) => `export const u${i} = ${i + 1};`));
  commit("Add the logo and one more value", "bob");

  // Many hunks: every other line rewritten by another author.
  write("data/big.txt", numbered(1500, (i) => `row ${i} original text that takes some room`));
  commit("Add the big table", "alice");
  write("data/big.txt", numbered(1500, (i) => (i % 2 ? `row ${i} original text that takes some room` : `row ${i} rewritten by bob, also rather long`)));
  commit("Rewrite even rows", "bob");
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** git blame --porcelain's commit for each line of `path`, in order (12 hex, as lore lists them). */
export function gitBlameShas(dir: string, path: string): string[] {
  const out = git(dir, ["blame", "--porcelain", "HEAD", "--", path]);
  const shas: string[] = [];
  for (const line of out.split("\n")) {
    const m = /^([0-9a-f]{40}) \d+ (\d+)/.exec(line);
    if (m) shas[Number(m[2]) - 1] = m[1]!.slice(0, 12);
  }
  return shas;
}

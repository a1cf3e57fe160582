import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { RepoScope } from "../../src/mcp/repos.ts";
import { git, tempDir } from "./fixture.ts";

let base: string;
let home: string;
let nested: string;
let elsewhere: string;

function initRepo(dir: string): void {
  mkdirSync(dir, { recursive: true });
  git(dir, ["init", "-q", "-b", "main"]);
}

beforeAll(() => {
  base = tempDir("lore-mcp-scope-");
  home = join(base, "home-repo");
  nested = join(home, "vendor", "lib");
  elsewhere = join(base, "elsewhere");
  initRepo(home);
  initRepo(nested);
  initRepo(elsewhere);
  mkdirSync(join(home, "src", "deep"), { recursive: true });
  // A symlink inside the starting repository that leads out of it.
  symlinkSync(elsewhere, join(home, "escape"));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const code = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string }) => e.code);

describe("which repositories the repo argument may name", () => {
  test("the default is the repository around the starting folder, found from a subfolder", async () => {
    expect(await new RepoScope(join(home, "src", "deep"), "").resolve(undefined)).toBe(home);
  });

  test("repositories under the starting one are allowed, by relative or absolute path", async () => {
    const scope = new RepoScope(join(home, "src"), "");
    expect(await scope.resolve("vendor/lib")).toBe(nested);
    expect(await scope.resolve(nested)).toBe(nested);
    expect(await scope.resolve(".")).toBe(home);
  });

  test("anything outside, including through a symlink or .., is refused", async () => {
    const scope = new RepoScope(home, "");
    expect(await code(scope.resolve(elsewhere))).toBe("REPO_NOT_ALLOWED");
    expect(await code(scope.resolve("escape"))).toBe("REPO_NOT_ALLOWED");
    expect(await code(scope.resolve("../elsewhere"))).toBe("REPO_NOT_ALLOWED");
    expect(await code(scope.resolve("/"))).toBe("REPO_NOT_ALLOWED");
  });

  test("LORE_MCP_ALLOWED_REPOS lets in the folders it lists (and what is under them)", async () => {
    const scope = new RepoScope(home, `relative/ignored:${base}`);
    expect(await scope.resolve(elsewhere)).toBe(elsewhere);
    expect(await code(new RepoScope(home, elsewhere).resolve(join(base, "home-repo-not-there")))).toBe("REPO_NOT_ALLOWED");
  });

  test("started outside any repository, repositories below the starting folder are allowed", async () => {
    const scope = new RepoScope(base, "");
    expect(await code(scope.resolve(undefined))).toBe("NOT_A_REPO");
    expect(await scope.resolve("elsewhere")).toBe(elsewhere);
  });
});

/** Declared owners: CODEOWNERS (GitHub's places and GitLab's sections) beside who wrote the lines, where they drift apart, and review's whom to ask. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ALICE, BOB, TestRepo } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { ownersOf, parseCodeowners, patternRegex } from "../../src/git/parse-codeowners.ts";

isolateHome();

describe("CODEOWNERS patterns", () => {
  test("match as GitHub documents them: anchored, anywhere, a folder's files, docs/* not below", () => {
    const m = (p: string, path: string) => patternRegex(p).test(path);
    expect([m("*.js", "a/b/c.js"), m("/build/logs/", "build/logs/x/y.log"), m("docs/*", "docs/a.md"), m("docs/*", "docs/sub/a.md")]).toEqual([true, true, true, false]);
    expect([m("apps/", "x/apps/y.ts"), m("/apps/", "x/apps/y.ts"), m("**/logs", "deep/er/logs/z"), m("src/a?.ts", "src/ab.ts")]).toEqual([true, false, true, true]);
  });

  test("the last matching rule wins, each GitLab section adds its own, and a bad line is named with its number", () => {
    const c = parseCodeowners("* @all\n/src/ @core  # core\n\n[Docs] @writers\n*.md\nbroken-owner notanowner\n[unclosed @x\n");
    expect(ownersOf(c, "src/a.ts")).toEqual(["@core"]);
    expect(ownersOf(c, "src/readme.md")).toEqual(["@core", "@writers"]);
    expect(c.errors.map((e) => e.split(":")[0])).toEqual(["line 6", "line 7"]);
  });
});

describe("owners and review read CODEOWNERS", () => {
  const repo = new TestRepo();

  beforeAll(() => {
    repo.write("src/a.ts", "1\n2\n3\n").commit("alice writes src", ALICE);
    repo.write("lib/b.ts", "1\n").commit("bob writes lib", BOB);
    // Carol is declared owner of lib/ but never wrote there; an email owner and a team too; one broken line.
    repo.write(".github/CODEOWNERS", "# owners\n/src/ @alice\n/lib/ carol@example.com @acme/lib-team @bob\nnot-a-rule ???\n").commit("codeowners", BOB);
  });
  afterAll(() => repo.cleanup());

  test("owners shows the declared owners beside the actual ones, the drift, and the unreadable line without failing", async () => {
    const o = await ask("owners", repo.dir, { by: "folder" });
    expect(o.codeowners).toBe(".github/CODEOWNERS");
    expect(o.codeownersErrors).toEqual([expect.stringMatching(/^line 4: /)]);
    const lib = o.results.find((r: any) => r.path === "lib");
    expect(lib.declared).toEqual(["carol@example.com", "@acme/lib-team", "@bob"]);
    // Carol wrote nothing under lib (the team cannot be told): drift; Bob wrote it, as his name says.
    expect(lib.drift).toEqual(["carol@example.com"]);
    const src = o.results.find((r: any) => r.path === "src");
    expect(src.declared).toEqual(["@alice"]);
    expect(src.drift).toBeUndefined();
    expect(o.results.find((r: any) => r.path === ".github").declared).toBeUndefined();
  });

  test("review names the declared owners of the changed files as whom to ask", async () => {
    repo.write("lib/b.ts", "changed\n");
    const r = await ask("review", repo.dir, {});
    expect(r.declared).toEqual(["carol@example.com", "@acme/lib-team", "@bob"]);
    expect(r.codeownersErrors).toHaveLength(1);
    repo.git("checkout", "--", "lib/b.ts");
  });
});

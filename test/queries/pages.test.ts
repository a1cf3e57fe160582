import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { callTool } from "../../src/mcp/call-tool.ts";
import { expandTuples } from "../../src/mcp/model-rows.ts";
import { RepoScope } from "../../src/mcp/repos.ts";
import { queryForTool } from "../../src/mcp/tools.ts";
import { answer } from "../../src/queries/answer.ts";
import { comparable, gitLogTruth, truthFiles } from "../helpers/git-log-truth.ts";
import { BOB, runGit, runGitBytes, tempDir, TestRepo } from "../helpers/git-repo.ts";
import { ask, cli, isolateHome } from "../helpers/lore.ts";

/**
 * A branch of 30 commits touching 260 files (renames among them) off main, and one commit of 130
 * files: compare's and show's lists go past a page, and every page is checked against git.
 */
let repo: TestRepo;
let base: string;
let head: string;
let wide: string;

beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  for (let i = 0; i < 20; i++) repo.write(`old/f${i}.txt`, `old ${i}\n`.repeat(5));
  base = repo.commit("start");
  repo.git("checkout", "-q", "-b", "topic");
  for (let c = 0; c < 30; c++) {
    for (let i = 0; i < 8; i++) repo.write(`src/c${c}/file-${i}.ts`, `export const v${c}_${i} = ${c * i};\n`);
    if (c < 20) repo.remove(`old/f${c}.txt`).write(`moved/f${c}.txt`, `old ${c}\n`.repeat(5));
    repo.commit(`topic ${c}: eight files`, c % 2 ? BOB : undefined);
  }
  head = repo.head();
  for (let i = 0; i < 130; i++) repo.write(`wide/w${i}.md`, `w ${i}\n`);
  wide = repo.commit("one commit of 130 files");
});

afterAll(() => repo.cleanup());

/** Every page of an answer, by asking with the token each page gives. */
async function pages(name: string, input: Record<string, unknown>, max = 20): Promise<any[]> {
  const out = [await ask(name, repo.dir, input)];
  while (out.at(-1).continue && out.length < max) out.push(await ask(name, repo.dir, { ...input, continue: out.at(-1).continue }));
  return out;
}

const diffFiles = (range: string) => truthFiles(runGitBytes(repo.dir, ["-c", "core.quotepath=off", "diff", "-z", "--raw", "--numstat", "-M", range]));

describe("continue gives the rest of every list, in order, nothing repeated", () => {
  test("compare's files page on their own: the pages concatenate to git diff --numstat -M base...head", async () => {
    const all = await pages("compare", { base, head, limit: 50 });
    const truth = diffFiles(`${base}...${head}`);
    expect(truth.length).toBe(260);
    expect(all.map((p) => p.files.length)).toEqual([100, 100, 60]);
    expect(all.flatMap((p) => p.files)).toEqual(truth);
    expect(all[0].filesTotal).toBe(260);
    // The commits all came on the first page (limit 50): the next pages hold none again.
    expect(all.slice(1).map((p) => p.commits)).toEqual([[], []]);
    expect(all.at(-1).continue).toBeUndefined();
  });

  test("compare's commits page by limit beside the files: both lists equal git's", async () => {
    const all = await pages("compare", { base, head, limit: 12 });
    expect(all.map((p) => p.commits.length)).toEqual([12, 12, 6]);
    expect(comparable(all.flatMap((p) => p.commits))).toEqual(gitLogTruth(repo.dir, [head, "--not", base]));
    expect(all.flatMap((p) => p.files)).toEqual(diffFiles(`${base}...${head}`));
  });

  test("show's files: pages of 50 concatenate to git show --numstat", async () => {
    const all = await pages("show", { rev: wide });
    expect(all.map((p) => p.files.length)).toEqual([50, 50, 30]);
    expect(all.flatMap((p) => p.files)).toEqual(truthFiles(runGitBytes(repo.dir, ["-c", "core.quotepath=off", "show", "-z", "--raw", "--numstat", "-M", "--format=", wide])));
    expect(all.slice(1).every((p) => p.message === undefined || p.after > 0)).toBe(true);
  });

  test("log: continue gives the next commits as git log lists them", async () => {
    const all = await pages("log", { limit: 7 });
    expect(all.flatMap((p) => p.commits.map((c: any) => c.sha))).toEqual(runGit(repo.dir, ["log", "--format=%h", "--abbrev=12"]).trim().split("\n"));
  });

  test("lists cut at limit (hotspots, cochange, search, history) continue to what one ask with a larger limit lists", async () => {
    const cases: [string, Record<string, unknown>, string, number][] = [
      ["hotspots", { path: "src", limit: 50 }, "results", 1000],
      ["cochange", { paths: ["src/c3/file-0.ts"], limit: 3 }, "results", 200],
      ["search", { query: "topic", limit: 7 }, "results", 1000],
      ["history", { path: "moved/f3.txt", limit: 1 }, "commits", 1000],
    ];
    for (const [name, input, list, most] of cases) {
      const all = await pages(name, input);
      expect({ name, pages: all.length > 1 }).toEqual({ name, pages: true });
      const whole = await ask(name, repo.dir, { ...input, limit: most });
      expect({ name, items: all.flatMap((p) => p[list]) }).toEqual({ name, items: whole[list] });
    }
  });

  test("over MCP the lists are cut to the byte budget and continue to git's whole list", async () => {
    const def = queryForTool("lore_compare")!;
    const deps = { scope: new RepoScope(repo.dir), call: (n: string, i: Record<string, unknown>, o: { cwd: string }) => answer(n, i, { cwd: o.cwd }), noDaemon: true, maxBytes: 4096, log: () => {} };
    const got: any[] = [];
    let token: string | undefined;
    do {
      const r = await callTool(def, { base, head, ...(token ? { continue: token } : {}) }, deps);
      expect(r.isError).toBeUndefined();
      got.push(r.structuredContent);
      expect(JSON.stringify(r.structuredContent).length).toBeLessThan(4096);
      token = r.structuredContent!.continue as string | undefined;
    } while (token && got.length < 40);
    // The model's files: { folder/: { name: [+, -, status?, oldPath?] } }, pages in git's order.
    const files = got.flatMap((p) => Object.entries((expandTuples(p) as any).files ?? {}));
    const truth = diffFiles(`${base}...${head}`);
    expect(files.map(([path]) => path).sort()).toEqual(truth.map((f) => f.path).sort());
    expect(Object.fromEntries(files)).toEqual(Object.fromEntries(truth.map((f) => [f.path, [f.additions, f.deletions, ...(f.status ? [f.status] : []), ...(f.oldPath ? [f.oldPath] : [])]])));
    expect(got.length).toBeGreaterThan(3);
    const commits = got.flatMap((p) => (p.commits ?? []).map((c: any) => c[0]));
    expect(commits).toEqual(runGit(repo.dir, ["log", "--format=%h", "--abbrev=12", `${base}..${head}`]).trim().split("\n"));
    // The continued pages repeat nothing of the first: only their lists and continue.
    for (const p of got.slice(1)) expect(Object.keys(p).filter((k) => !["commits", "files", "columns", "continue"].includes(k))).toEqual([]);
  });

  test("the CLI says how to go on, and --continue takes the token", () => {
    const first = cli(repo.dir, ["compare", base, head, "--json"]);
    expect(first.json.files.length).toBe(100);
    const second = cli(repo.dir, ["compare", base, head, "--json", "--continue", first.json.continue]);
    expect(second.json.files).toEqual(diffFiles(`${base}...${head}`).slice(100, 200));
    expect(cli(repo.dir, ["compare", base, head]).stdout).toContain(`--continue ${first.json.continue}`);
  });
});

describe("a continue token not made for the question as asked now is BAD_CONTINUE", () => {
  const refused = async (input: Record<string, unknown>, name = "compare", dir = repo.dir) => {
    const e = await answer(name, { repo: dir, ...input }, { cwd: dir }).then(() => undefined, (err) => err);
    expect(e?.code).toBe("BAD_CONTINUE");
    expect(e.message).toContain("no continue");
  };
  let token: string;
  beforeAll(async () => {
    token = (await ask("compare", repo.dir, { base, head })).continue;
  });

  test("forged, changed or cut short", async () => {
    const flip = token.slice(0, -1) + String((Number(token.at(-1)) + 1) % 10);
    for (const bad of [flip, token.slice(0, -1), "1" + token, "12345", "abc", `${token}x`]) await refused({ base, head, continue: bad });
    // The offsets are sealed too: asking for the third page with the first page's seal is refused.
    await refused({ base, head, continue: `33200${token.slice(-9)}` });
  });

  test("another question, or other arguments", async () => {
    await refused({ limit: 20, continue: token }, "log");
    await refused({ base, head, limit: 5, continue: token });
  });

  test("another repository", async () => {
    const copy = join(tempDir(), "copy");
    cpSync(repo.dir, copy, { recursive: true });
    await refused({ base, head, continue: token }, "compare", copy);
  });

  test("HEAD moved, or the files that change answers (.mailmap) changed", async () => {
    const copy = new TestRepo(join(tempDir(), "moved"), false);
    cpSync(repo.dir, copy.dir, { recursive: true });
    const t = (await ask("compare", copy.dir, { base, head })).continue;
    copy.write("new.txt", "x\n").commit("later");
    await refused({ base, head, continue: t }, "compare", copy.dir);
    const t2 = (await ask("compare", copy.dir, { base, head })).continue;
    writeFileSync(join(copy.dir, ".mailmap"), "Alice <alice@example.com> <bob@example.com>\n");
    await refused({ base, head, continue: t2 }, "compare", copy.dir);
  });
});

test("every question with a list an answer may cut offers continue, and pages.ts knows its lists", async () => {
  const { QUERIES } = await import("../../src/queries/index.ts");
  const { PAGED } = await import("../../src/queries/pages.ts");
  expect(QUERIES.filter((q) => q.continues).map((q) => q.name).sort()).toEqual(Object.keys(PAGED).sort());
});

test("review's pages of uncommitted work: a token is refused once the staging area or a file changed", async () => {
  const r = new TestRepo();
  try {
    for (let i = 0; i < 45; i++) r.write(`f${i}.txt`, `line ${i}\n`);
    r.commit("start");
    for (let i = 0; i < 45; i++) r.write(`f${i}.txt`, `line ${i}\nmore ${i}\n`);
    const first = await ask("review", r.dir, { budget: 1024 });
    expect(first.continue).toMatch(/^\d+$/);
    const next = await ask("review", r.dir, { budget: 1024, continue: first.continue });
    const both = [...first.files, ...next.files].map((f: any) => f.path);
    expect(both).toEqual(runGit(r.dir, ["diff", "--name-only", "HEAD"]).trim().split("\n").slice(0, both.length));
    r.git("add", "f0.txt");
    const staged = await answer("review", { repo: r.dir, budget: 1024, continue: first.continue }, { cwd: r.dir }).catch((e: any) => e) as any;
    expect(staged.code).toBe("BAD_CONTINUE");
    const again = await ask("review", r.dir, { budget: 1024 });
    writeFileSync(join(r.dir, "f29.txt"), "edited on disk\n");
    const edited = await answer("review", { repo: r.dir, budget: 1024, continue: again.continue }, { cwd: r.dir }).catch((e: any) => e) as any;
    expect(edited.code).toBe("BAD_CONTINUE");
  } finally {
    r.cleanup();
  }
});

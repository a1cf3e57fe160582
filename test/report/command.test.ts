/** `lore report` on the command line: the file it writes in this process, and the daemon's loopback listener. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { daemonHome, discardHome, lore } from "../daemon/daemon-helpers.ts";
import type { TestRepo } from "../helpers/git-repo.ts";
import { cli, isolateHome } from "../helpers/lore.ts";
import { FILE_LINES, reportRepo } from "./fixture.ts";

let repo: TestRepo;
let home: string;

beforeAll(() => {
  home = isolateHome();
  repo = reportRepo();
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The data a written report carries. */
const dataOf = (html: string) => JSON.parse(html.split('id="lore-data">')[1]!.split("</script>")[0]!);

test("--no-daemon --out writes one self-contained page with every file's lines", () => {
  const out = join(home, "r.html");
  const r = cli(repo.dir, ["report", "--out", out, "--json"]);
  expect(r.stderr).toBe("");
  expect(r.json).toEqual({ out, bytes: readFileSync(out).length });
  const html = readFileSync(out, "utf8");
  expect(Object.fromEntries(dataOf(html).files.map((f: { path: string; lines: number }) => [f.path, f.lines]))).toEqual(FILE_LINES);
  // Nothing to fetch: no src= or href= of any kind, and a policy that forbids it anyway.
  expect(html).not.toMatch(/\b(src|href)=/);
  expect(html).toContain(`content="default-src 'none'; script-src 'sha256-`);
});

test("a folder, and the repository as of a commit, are reported alone", () => {
  const out = join(home, "src.html");
  expect(cli(repo.dir, ["report", "src", "--until", "HEAD~3", "--out", out]).code).toBe(0);
  const data = dataOf(readFileSync(out, "utf8"));
  expect(data.path).toBe("src");
  expect(data.files.map((f: { path: string }) => f.path).sort()).toEqual(["src/app.ts", "src/util.ts"]);
});

test("without the daemon there is nothing to serve: a usage error asks for --out", () => {
  const r = cli(repo.dir, ["report", "--json"]);
  expect(r.code).toBe(2);
  expect(r.json.error.code).toBe("USAGE");
  expect(cli(repo.dir, ["report", "nowhere", "--out", join(home, "x.html")]).code).toBe(1);
});

test("the daemon serves the report on 127.0.0.1 with a token, 403 without it, and stops serving when it stops", async () => {
  const dhome = daemonHome();
  try {
    const r = await lore(dhome, repo.dir, ["report", "--json"]);
    expect(r.code).toBe(0);
    const url = new URL(r.json.url);
    expect(url.hostname).toBe("127.0.0.1");
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(dataOf(await page.text()).files).toHaveLength(Object.keys(FILE_LINES).length);
    for (const bad of [`${url.origin}/`, `${url.origin}/?token=`, `${url.origin}/?token=${url.searchParams.get("token")!.slice(1)}`, `${url.origin}/x?token=nope`]) expect((await fetch(bad)).status).toBe(403);
    expect((await fetch(url, { method: "POST" })).status).toBe(405);
    await lore(dhome, repo.dir, ["daemon", "stop"]);
    expect(await fetch(url).then(() => "answered", () => "refused")).toBe("refused");
  } finally {
    await discardHome(dhome);
  }
});

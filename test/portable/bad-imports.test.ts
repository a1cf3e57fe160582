/**
 * Every bad index file is refused with its code and changes nothing: the index file's bytes are the
 * same before and after. Then imports from a URL (a local server, one that wants a token) and stdin.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { generateRepo } from "../bench/gen-repo.ts";
import { runGit, tempDir } from "../helpers/git-repo.ts";
import { cli } from "../helpers/lore.ts";
import { loreCommand } from "../helpers/lore-argv.ts";
import { filesUnder, indexDbOf, readIndexFile, writeIndexFile, type IndexFile } from "../helpers/index-file.ts";

const TOKEN = "s3cret-token-4f1d";
let root = "";
let repo = "";
let home = "";
let good = "";
let foreign = "";
let server: ReturnType<typeof Bun.serve>;

function variant(name: string, change: (f: IndexFile) => void, keep: string[] = []): string {
  const f = readIndexFile(good);
  change(f);
  const path = join(root, `${name}.lore`);
  writeIndexFile(path, f, keep);
  return path;
}

/** The database of the good file changed by SQL, as a hostile file would be made. */
function craftedDb(name: string, sql: string): string {
  const f = readIndexFile(good);
  const dbPath = join(root, `${name}.db`);
  writeFileSync(dbPath, f.db);
  const db = new Database(dbPath);
  db.exec(sql);
  db.close();
  return variant(name, (g) => (g.db = readFileSync(dbPath)));
}

/** `lore ARGS` in the repository without blocking this process (whose server answers the URL imports). */
function lore(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string; json: any }> {
  return new Promise((resolve) => {
    const c = loreCommand(args);
    const child = spawn(c.command, c.args, { cwd: repo, env: { ...process.env, LORE_NO_DAEMON: "1", NO_COLOR: "1", LORE_HOME: home, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => {
      let json: any;
      try {
        json = JSON.parse(stdout);
      } catch {}
      resolve({ code: code ?? -1, stdout, stderr, json });
    });
  });
}

/** Imports `source` and expects the refusal `code`, with the index file's bytes unchanged. */
async function refused(source: string, code: string, env: Record<string, string> = {}): Promise<string> {
  const db = indexDbOf(home);
  const before = readFileSync(db);
  const r = await lore(["index", "import", source], env);
  expect(r.stderr).toContain(`[${code}]`);
  expect(r.code).toBe(code === "BAD_ARGUMENT" ? 2 : 1);
  expect(r.stderr).not.toContain("    at ");
  expect(readFileSync(db).equals(before)).toBe(true);
  return r.stderr;
}

beforeAll(async () => {
  root = tempDir("lore-bad-");
  home = join(root, "home");
  repo = join(root, "repo");
  await generateRepo({ dir: repo, commits: 120, files: 30, seed: 5 });
  // A squash-merged commit written with an agent: its provenance must survive an import of any schema.
  writeFileSync(join(repo, "provenance.txt"), "one line\n");
  runGit(repo, ["add", "provenance.txt"]);
  runGit(repo, ["commit", "-q", "-m", "Add the provenance note (#42)\n\nCo-authored-by: Claude <noreply@anthropic.com>"]);
  good = join(root, "good.lore");
  expect(cli(repo, ["index", "export", good], { LORE_HOME: join(root, "home-x") }).code).toBe(0);
  // The clone's own index exists before the bad files come.
  expect(cli(repo, ["index", "build"], { LORE_HOME: home }).code).toBe(0);
  const other = join(root, "other");
  await generateRepo({ dir: other, commits: 40, files: 10, seed: 99 });
  foreign = join(root, "foreign.lore");
  expect(cli(other, ["index", "export", foreign], { LORE_HOME: join(root, "home-o") }).code).toBe(0);
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === "/private.lore") return req.headers.get("authorization") === `Bearer ${TOKEN}` ? new Response(Bun.file(good)) : new Response("no", { status: 401 });
      if (url.pathname === "/cut.lore") {
        const bytes = readFileSync(good);
        return new Response(bytes.subarray(0, bytes.length >> 1), { headers: { "content-type": "application/octet-stream" } });
      }
      if (url.pathname === "/hop") return Response.redirect(`http://127.0.0.1:${server.port}/private.lore`, 302);
      return url.pathname === "/good.lore" ? new Response(Bun.file(good)) : new Response("gone", { status: 404 });
    },
  });
}, 240_000);

afterAll(() => server?.stop(true));

describe("a bad index file is refused and the index stays byte for byte as it was", () => {
  test("a file cut short (an interrupted copy)", async () => {
    const bytes = readFileSync(good);
    writeFileSync(join(root, "cut.lore"), bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    expect(await refused(join(root, "cut.lore"), "BAD_INDEX_FILE")).toContain("cut short");
  });

  test("a file that is not an index file, and an empty one", async () => {
    writeFileSync(join(root, "text.lore"), "hello\n");
    await refused(join(root, "text.lore"), "BAD_INDEX_FILE");
    writeFileSync(join(root, "empty.lore"), "");
    await refused(join(root, "empty.lore"), "BAD_INDEX_FILE");
  });

  test("a byte changed in transit (the checksum)", async () => {
    const f = readIndexFile(good);
    f.manifest.compression = "none";
    const path = join(root, "flip.lore");
    writeIndexFile(path, f);
    const bytes = readFileSync(path);
    bytes[bytes.length - 5000] ^= 0xff;
    writeFileSync(path, bytes);
    expect(await refused(path, "BAD_INDEX_FILE")).toContain("checksum");
  });

  test("an index written by a newer lore", async () => {
    await refused(variant("newer", (f) => (f.manifest.schema = 99)), "INDEX_TOO_NEW");
    await refused(variant("format", (f) => (f.manifest.format = 2)), "INDEX_TOO_NEW");
  });

  test("another repository's index", async () => {
    expect(await refused(foreign, "INDEX_FOREIGN")).toContain("another repository");
  });

  test("an index built with another .mailmap", async () => {
    await refused(variant("mailmap", (f) => (f.manifest.mailmap = "a".repeat(40))), "INDEX_MISMATCH");
  });

  test("a database with a trigger, or a view, lore's schema does not have", async () => {
    expect(await refused(craftedDb("trigger", "CREATE TRIGGER evil AFTER INSERT ON meta BEGIN DELETE FROM paths; END;"), "BAD_INDEX_FILE")).toContain("triggers");
    await refused(craftedDb("view", "CREATE VIEW evil AS SELECT 1"), "BAD_INDEX_FILE");
  });

  test("paths that leave the work tree: .., absolute, NUL", async () => {
    for (const [name, path] of [["dotdot", "../../etc/passwd"], ["absolute", "/etc/passwd"], ["nul", "a\u0000b"]]) {
      const stderr = await refused(craftedDb(name!, `UPDATE paths SET path = '${path!.replace("\u0000", "' || char(0) || '")}' WHERE id = (SELECT min(id) FROM paths)`), "BAD_INDEX_FILE");
      expect(stderr).toContain("path");
    }
  });

  test("a decompression bomb: more bytes than the manifest gives, or more than the disk has", async () => {
    expect(await refused(variant("bomb", (f) => (f.manifest.bytes = 4096), ["bytes"]), "BAD_INDEX_FILE")).toContain("more than");
    await refused(variant("huge", (f) => (f.manifest.bytes = 2 ** 52), ["bytes"]), "INDEX_WRITE_FAILED");
  });

  test("a manifest that lies about the head, and commits that are not git's", async () => {
    const other = runGit(repo, ["rev-parse", "HEAD~3"]).trim();
    await refused(variant("head", (f) => (f.manifest.head = other)), "BAD_INDEX_FILE");
    expect(await refused(craftedDb("times", "UPDATE commit_rows SET time = time + 1"), "BAD_INDEX_FILE")).toContain("not this repository's commit");
  });

  test("a damaged database whose checksum fits (SQLite's integrity check)", async () => {
    const f = readIndexFile(good);
    // Past the first pages (the schema): rows and b-trees.
    for (let i = f.db.length - 8192; i < f.db.length - 4096; i += 7) f.db[i] = 0x5a;
    const path = join(root, "damaged.lore");
    writeIndexFile(path, f);
    await refused(path, "BAD_INDEX_FILE");
  });

  test("a download cut off, a URL that wants credentials, a file that is not there", async () => {
    await refused(`http://127.0.0.1:${server.port}/cut.lore`, "BAD_INDEX_FILE");
    expect(await refused(`http://127.0.0.1:${server.port}/private.lore?X-Signature=abc123`, "INDEX_DOWNLOAD_FAILED")).not.toContain("abc123");
    await refused(`http://127.0.0.1:${server.port}/missing.lore`, "INDEX_DOWNLOAD_FAILED");
    await refused(join(root, "nothing-here.lore"), "BAD_ARGUMENT");
  });
});

describe("imports that work", () => {
  test("from a URL with a bearer token, which is never written anywhere", async () => {
    const r = await lore(["index", "import", `http://127.0.0.1:${server.port}/private.lore`, "--header", `Authorization: Bearer ${TOKEN}`, "--json"]);
    expect(r.code).toBe(0);
    expect(r.json.imported).toBe(runGit(repo, ["rev-parse", "HEAD"]).trim());
    const env = await lore(["index", "import", `http://127.0.0.1:${server.port}/hop`, "--json"], { LORE_INDEX_HEADER: `Authorization: Bearer ${TOKEN}` });
    expect(env.code).toBe(0);
    for (const out of [r.stdout, r.stderr, env.stdout, env.stderr]) expect(out).not.toContain(TOKEN);
    for (const f of filesUnder(home)) expect(readFileSync(f).includes(TOKEN)).toBe(false);
  });

  test("of an older schema, migrated as the store migrates, its commits' provenance filled", async () => {
    // Schema 8 lacks what 9 (blame failures) and 10 (provenance) add.
    const older = craftedDb("schema8", "DROP TABLE blame_failures; DROP TABLE commit_marks; DROP TABLE releases; DROP TABLE release_commits; DROP TABLE note_agents; PRAGMA user_version = 8;");
    const f = readIndexFile(older);
    f.manifest.schema = 8;
    writeIndexFile(older, f);
    const r = await lore(["index", "import", older, "--json"]);
    expect(r.stderr).toContain("lore: imported");
    expect(r.code).toBe(0);
    const log = cli(repo, ["log", "-n", "3", "--json"], { LORE_HOME: home }).json.commits;
    expect(log.length).toBe(3);
    expect([log[0].pr, log[0].agent, log[1].pr, log[1].agent]).toEqual([42, "claude", undefined, undefined]);
  });

  test("whose count of marked commits reaches past its commits: every commit is marked again, its pr and agent as git's log says", async () => {
    const lying = craftedDb("marked-past", "DELETE FROM commit_marks; UPDATE meta SET value = '999999999' WHERE key = 'provenanceThrough';");
    const r = await lore(["index", "import", lying, "--json"]);
    expect(r.code).toBe(0);
    const log = cli(repo, ["log", "-n", "2", "--json"], { LORE_HOME: home }).json.commits;
    expect([log[0].pr, log[0].agent, log[1].pr]).toEqual([42, "claude", undefined]);
  });

  test("whose message search is not an empty one, into a LORE_HOME with no index yet: the search is made from its commits, never taken from the file", async () => {
    // An export's search is empty; this one's claims a word for the newest commit that no commit has.
    const planted = craftedDb("search-planted", "INSERT INTO message_fts (rowid, subject, body) SELECT max(id), 'zebracornword', '' FROM commit_rows;");
    const fresh = join(root, "home-fresh-search");
    const r = await lore(["index", "import", planted, "--json"], { LORE_HOME: fresh });
    expect(r.code).toBe(0);
    expect(runGit(repo, ["log", "--format=%h", "--grep=zebracornword"]).trim()).toBe("");
    expect(cli(repo, ["search", "zebracornword", "--json"], { LORE_HOME: fresh }).json.results ?? []).toEqual([]);
    const found = cli(repo, ["search", "provenance", "--json"], { LORE_HOME: fresh }).json.results.map((c: { sha: string }) => c.sha);
    expect(found).toEqual(runGit(repo, ["log", "--format=%H", "-i", "--grep=provenance"]).trim().split("\n").map((h) => h.slice(0, 12)));
  });

  test("from stdin, and an export to stdout imports the same", async () => {
    const env = { ...process.env, LORE_HOME: home, LORE_NO_DAEMON: "1" };
    const exported = loreCommand(["index", "export", "-"]);
    const out = spawnSync(exported.command, exported.args, { cwd: repo, env, maxBuffer: 1 << 28 });
    expect(out.status).toBe(0);
    expect(out.stdout.subarray(0, 13).toString()).toBe("lore-index 1\n");
    const imported = loreCommand(["index", "import", "-", "--json"]);
    const r = spawnSync(imported.command, imported.args, { cwd: repo, env, input: out.stdout, encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).newCommits).toBe(0);
  });
});

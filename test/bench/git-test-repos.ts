/**
 * Compares lore with git on every repository under a folder (such as the trash directories git's
 * own test scripts leave with --debug): history with and without --follow and blame of every file
 * at HEAD and at each other branch tip, and log. Prints each disagreement and the counts.
 *
 *   bun test/bench/git-test-repos.ts DIR [DIR…] [--only history,blame,log] [--quiet]
 */
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { closeAll } from "../../src/index/indexes.ts";
import { comparable, gitLogTruth } from "../helpers/git-log-truth.ts";
import { asLore, gitBlame, gitBlameWorkTree, gitLogFile, historyAsLog, hunksToLines, type LogEntry } from "../helpers/git-truth.ts";
import { runGit, runGitBytes } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";

const args = process.argv.slice(2);
const onlyAt = args.indexOf("--only");
const only = new Set(onlyAt >= 0 ? args[onlyAt + 1]!.split(",") : ["history", "blame", "log"]);
const quiet = args.includes("--quiet");
const roots = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--only");
if (roots.length === 0) {
  console.error("usage: bun test/bench/git-test-repos.ts DIR [DIR…] [--only history,blame,log] [--quiet]");
  process.exit(2);
}

/** A bare repository: a folder git itself would take as a git dir. */
function isBare(dir: string): boolean {
  return existsSync(join(dir, "HEAD")) && existsSync(join(dir, "objects")) && existsSync(join(dir, "refs"));
}

/** Every repository under `dir`: work trees (with a .git folder or file), nested ones too; bare ones go to bareRepos. */
function findRepos(dir: string, out: string[] = []): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  if (entries.some((e) => e.name === ".git")) out.push(dir);
  else if (isBare(dir)) return bareRepos.push(dir), out;
  for (const e of entries) if (e.isDirectory() && e.name !== ".git") findRepos(join(dir, e.name), out);
  return out;
}

// lore refuses a bare repository by design (NOT_A_REPO: it answers about a checkout).
const bareRepos: string[] = [];
let checks = 0;
const disagreements: { repo: string; what: string; lore: unknown; git: unknown }[] = [];
const skipped: string[] = [];

/** JSON with keys sorted and undefined fields dropped: equal facts, equal text. */
function canon(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).filter(([, y]) => y !== undefined).sort(([a], [b]) => (a < b ? -1 : 1))) : x));
}

/** One comparison: equal JSON, or one more disagreement (both failing counts as agreeing). */
async function check(repo: string, what: string, loreSide: () => Promise<unknown>, gitSide: () => unknown): Promise<void> {
  checks++;
  const settle = async (f: () => unknown) => {
    try {
      return { ok: await f() };
    } catch (err) {
      return { error: String((err as Error).message ?? err).split("\n")[0] };
    }
  };
  const [l, g] = [await settle(loreSide), await settle(gitSide)];
  if ("error" in l && "error" in g) return;
  if (canon(l) === canon(g)) return;
  disagreements.push({ repo, what, lore: l, git: g });
  if (!quiet) console.log(`DIFFERS ${repo} ${what}\n  lore: ${JSON.stringify(l)}\n  git:  ${JSON.stringify(g)}`);
}

const git = (dir: string, ...a: string[]) => runGit(dir, a);
const gitMaybe = (dir: string, ...a: string[]) => {
  try {
    return git(dir, ...a);
  } catch {
    return "";
  }
};
const filesAt = (dir: string, rev: string) =>
  runGitBytes(dir, ["ls-tree", "-r", "-z", rev])
    .toString("utf8")
    .split("\0")
    .filter(Boolean)
    .map((l) => ({ mode: l.slice(0, 6), path: l.slice(l.indexOf("\t") + 1) }));

/** git's merges carry no diff: lore says M there. */
const gitHistory = (dir: string, rev: string, path: string, follow: boolean): LogEntry[] =>
  gitLogFile(dir, rev, path, follow).map((e) => (e.status === "" ? { ...e, status: "M" } : e));

async function checkHistory(repo: string, dir: string, rev: string | undefined, path: string): Promise<void> {
  for (const follow of [true, false]) {
    const until = rev === undefined ? {} : { until: rev };
    await check(
      repo,
      `history ${follow ? "" : "--no-follow "}${rev ? `--until ${rev} ` : ""}${path}`,
      async () => historyAsLog(await ask("history", dir, { path, follow, limit: 10000, ...until })),
      () => gitHistory(dir, rev ?? "HEAD", path, follow),
    );
  }
}

/** git blame as lore answers it: the file on disk where there is one (HEAD's where not), with the root's ignore-revs file. */
function gitBlameAsLore(dir: string, path: string): unknown {
  const ignore = join(dir, ".git-blame-ignore-revs");
  const extra = ["--no-ignore-revs-file", ...(existsSync(ignore) ? ["--ignore-revs-file", ignore] : [])];
  const st = lstatSync(join(dir, path), { throwIfNoEntry: false });
  const onDisk = st !== undefined && (st.isFile() || st.isSymbolicLink());
  const owners = onDisk ? gitBlameWorkTree(dir, path, extra) : gitBlame(dir, "HEAD", path, extra);
  return owners.map((o) => (o.sha === null ? { sha: null } : asLore(o as Parameters<typeof asLore>[0], path)));
}

/** lore refuses to blame a binary file (BINARY_FILE), git blames its "lines": a refusal agrees where git's diff calls the file binary too. */
const BINARY = { binary: true };
const gitSaysBinary = (dir: string, rev: string, path: string) => git(dir, "diff", "--numstat", EMPTY_TREE, rev, "--", path).startsWith("-\t-\t");
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

async function loreBlame(dir: string, path: string): Promise<unknown> {
  let r;
  try {
    r = await ask("blame", dir, { path });
  } catch (err) {
    if ((err as { code?: string }).code === "BINARY_FILE") return BINARY;
    throw err;
  }
  return hunksToLines(r.hunks, path).map((l) => (l.sha === null ? { sha: null } : { sha: l.sha, origPath: l.origPath, origLine: l.origLine }));
}

async function checkRepo(dir: string, name: string): Promise<void> {
  let head: string;
  try {
    head = git(dir, "rev-parse", "--verify", "-q", "HEAD^{commit}").trim();
  } catch {
    skipped.push(`${name}: no commit at HEAD`);
    return;
  }
  // A partial clone: git would fetch what it lacks from the remote, lore never downloads and says so.
  if (/^(remote\..*\.promisor true|extensions\.partialclone )/m.test(gitMaybe(dir, "config", "--get-regexp", "^(remote\\..*\\.promisor|extensions\\.partialclone)$"))) {
    skipped.push(`${name}: a partial clone (lore never downloads what it lacks)`);
    return;
  }
  if (only.has("log"))
    await check(
      name,
      "log",
      async () => comparable((await ask("log", dir, { limit: 10000 })).commits),
      () => gitLogTruth(dir, ["-n", "10000", "HEAD"]),
    );
  const files = filesAt(dir, "HEAD");
  for (const f of files) {
    if (only.has("history")) await checkHistory(name, dir, undefined, f.path);
    if (!only.has("blame") || f.mode === "160000") continue;
    let refused = false;
    await check(
      name,
      `blame ${f.path}`,
      async () => {
        const r = await loreBlame(dir, f.path);
        refused = r === BINARY;
        return r;
      },
      () => (refused && gitSaysBinary(dir, "HEAD", f.path) ? BINARY : gitBlameAsLore(dir, f.path)),
    );
  }
  if (!only.has("history")) return;
  // The other branch tips: git's walk meets the same commits from another start.
  const tips = new Set(
    git(dir, "for-each-ref", "--format=%(objectname) %(refname:short)", "refs/heads")
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split(" ") as [string, string])
      .filter(([sha]) => sha !== head)
      .map(([, ref]) => ref),
  );
  const seen = new Set([head]);
  for (const ref of tips) {
    const sha = git(dir, "rev-parse", `${ref}^{commit}`).trim();
    if (seen.has(sha)) continue;
    seen.add(sha);
    for (const f of filesAt(dir, sha)) await checkHistory(name, dir, sha, f.path);
  }
}

isolateHome();
const repos = roots.flatMap((r) => findRepos(r).map((dir) => ({ dir, name: relative(r, dir) ? `${r}/${relative(r, dir)}` : r })));
const started = performance.now();
for (const { dir, name } of repos) {
  const before = disagreements.length;
  try {
    await checkRepo(dir, name);
  } catch (err) {
    skipped.push(`${name}: ${String((err as Error).message).split("\n")[0]}`);
  }
  closeAll();
  if (!quiet) console.error(`${name}: ${disagreements.length - before} disagreements`);
}
for (const s of skipped) console.log(`skipped ${s}`);
if (bareRepos.length) console.log(`left out ${bareRepos.length} bare repositories (lore answers about a checkout): ${bareRepos.join(" ")}`);
const byKind = new Map<string, number>();
for (const d of disagreements) {
  const kind = d.what.split(" ").slice(0, d.what.startsWith("history --no-follow") ? 2 : 1).join(" ");
  byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
}
console.log(
  `${repos.length} repositories (${skipped.length} skipped), ${checks} checks, ${disagreements.length} disagreements` +
    (byKind.size ? ` (${[...byKind].map(([k, n]) => `${k}: ${n}`).join(", ")})` : "") +
    ` in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
process.exit(disagreements.length === 0 ? 0 : 1);

/** How restore is answered: a snapshot of now first, then the named files written back as the snapshot had them. */
import { chmodSync, lstatSync, mkdirSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { LoreError } from "../../errors.ts";
import { catBlobs } from "../../git/cat-file.ts";
import { repoRelativePath } from "../../git/repo-path.ts";
import { git } from "../../git/run.ts";
import { SnapshotStore } from "../../memory/store.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import type { RESTORE_ARGS, RestoreOutput } from "../restore.ts";
import { isUnder, repoPath, shortSha } from "./common.ts";

interface Entry {
  mode: string;
  sha: string;
  path: string;
}

async function filesIn(store: SnapshotStore, tree: string, paths: string[]): Promise<Entry[]> {
  const out = await git(["ls-tree", "-r", "-z", "--full-tree", tree, "--", ...paths], { cwd: store.repo.root, env: store.env() });
  return out
    .toString("utf8")
    .split("\0")
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf("\t");
      const [mode, , sha] = line.slice(0, tab).split(" ");
      return { mode: mode!, sha: sha!, path: line.slice(tab + 1) };
    });
}

/** The contents of blobs, in one `git cat-file --batch`. */
async function blobs(store: SnapshotStore, shas: string[]): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  await catBlobs(shas, { cwd: store.repo.root, env: store.env() }, (sha, content) => {
    if (content) found.set(sha, content);
  });
  return found;
}

function removeIfThere(abs: string): void {
  try {
    lstatSync(abs);
    unlinkSync(abs);
  } catch {}
}

export async function run(ctx: QueryContext, input: Input<typeof RESTORE_ARGS>): Promise<RestoreOutput> {
  const root = ctx.index.repo.root;
  const store = new SnapshotStore(ctx.index.repo);
  const from = store.find(input.from);
  const paths = input.paths.map((p) => repoPath(ctx, p));
  if (paths.length === 0) throw new LoreError("BAD_ARGUMENT", "restore writes only the paths it is given: name the files or folders to put back.");
  const named = paths.map((p) => (p === "" ? "." : p));
  // What is there now, kept first: the restore can itself be undone.
  const backup = await store.take(`before restore of ${named.join(" ")} from ${shortSha(from.id)}`, ctx.clock());
  const wanted = await filesIn(store, from.tree, named);
  const present = await filesIn(store, backup.snapshot.tree, named);
  for (const p of paths) {
    const inside = (e: Entry) => isUnder(e.path, p);
    if (!wanted.some(inside) && !present.some(inside)) throw new LoreError("PATH_NOT_FOUND", `${p} is neither in snapshot ${shortSha(from.id)} nor in the work tree.`);
  }
  const files = wanted.filter((e) => e.mode !== "160000");
  const contents = await blobs(store, files.map((e) => e.sha));
  const keep = new Set(files.map((e) => e.path));
  const removed = present.filter((e) => e.mode !== "160000" && !keep.has(e.path)).map((e) => e.path);
  for (const path of removed) removeIfThere(join(root, repoRelativePath(root, join(root, path))));
  for (const e of files) {
    // Checked again as written: a folder replaced by a symlink since must not lead the write outside.
    const abs = join(root, repoRelativePath(root, join(root, e.path)));
    mkdirSync(dirname(abs), { recursive: true });
    removeIfThere(abs); // never write through a symlink
    const data = contents.get(e.sha) ?? Buffer.alloc(0);
    if (e.mode === "120000") symlinkSync(data.toString("utf8"), abs);
    else {
      writeFileSync(abs, data);
      chmodSync(abs, e.mode === "100755" ? 0o755 : 0o644);
    }
  }
  return { repo: root, from: { id: shortSha(from.id), time: from.time }, backup: shortSha(backup.snapshot.id), restored: files.map((e) => e.path), removed };
}

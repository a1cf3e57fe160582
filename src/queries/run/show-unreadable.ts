/** Which of a commit's files have no line counts because git cannot read their content (a damaged clone), not because they are binary. */
import { blobSizes } from "../../git/cat-file.ts";
import { fromLatin1 } from "../../git/paths.ts";
import { git } from "../../git/run.ts";
import type { LogFile } from "../log.ts";
import type { QueryContext } from "../context.ts";
import { UNREADABLE_CONTENT } from "../../index/churn.ts";

const NO_OBJECT = /^0+$/;
const GITLINK = "160000";

/**
 * The files listed without +/- whose content on either side is missing from the object store,
 * "path: why" as the other answers' leftOut says it. The churn pass stores both kinds as unknown
 * counts; one diff-tree (no content read) and one cat-file --batch-check tell them apart, and
 * only for a commit that lists such a file.
 */
export async function unreadableFiles(ctx: QueryContext, sha: string, parent: string | null, files: LogFile[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const unknown = new Set(files.filter((f) => f.binary).map((f) => f.path));
  if (unknown.size === 0) return out;
  const raw = (await git(["diff-tree", "-r", "-z", "--raw", "--no-renames", "--no-abbrev", ...(parent ? [parent, sha] : ["--root", sha])], ctx.index.git)).toString("latin1").split("\0");
  // ":oldMode newMode oldBlob newBlob status", then the path.
  const blobs = new Map<string, string[]>();
  for (let i = 0; i + 1 < raw.length; i++) {
    if (!raw[i]!.startsWith(":")) continue;
    const [oldMode, newMode, oldBlob, newBlob] = raw[i]!.slice(1).split(" ");
    const path = fromLatin1(raw[++i]!);
    // A submodule's side names a commit of another repository, never in this object store.
    const sides = [oldMode === GITLINK ? "" : oldBlob!, newMode === GITLINK ? "" : newBlob!];
    if (unknown.has(path)) blobs.set(path, [...(blobs.get(path) ?? []), ...sides].filter((b) => b && !NO_OBJECT.test(b)));
  }
  const all = [...new Set([...blobs.values()].flat())];
  if (all.length === 0) return out;
  const present = await blobSizes(all, ctx.index.git);
  for (const [path, list] of blobs) {
    const gone = list.find((b) => !present.has(b));
    if (gone) out.set(path, `${path}: git cannot read its content (object ${gone}): it is missing from the repository's object store (a damaged or incomplete clone; git fsck lists what is missing).`);
  }
  return out;
}

/**
 * unreadableFiles for the commits of a list (log, history): asked only once the churn pass has met
 * a file git cannot read, so a sound clone's answer costs no git process for its binary files.
 * `parent` null: the commit against its first parent (diff-tree of the commit alone).
 */
export async function unreadableInList(ctx: QueryContext, sha: string, files: LogFile[]): Promise<Map<string, string>> {
  if (ctx.index.store.meta(UNREADABLE_CONTENT) === undefined || !files.some((f) => f.binary)) return new Map();
  return unreadableFiles(ctx, sha, null, files);
}

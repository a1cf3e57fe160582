/**
 * The first release of each commit: one read of the release tags, one walk of the history they
 * hold (git rev-list --parents), each tag in version order marking the commits no earlier one holds.
 */
import { createHash } from "node:crypto";
import { isShallow } from "../git/repo.ts";
import { gitText } from "../git/run.ts";
import type { ReleaseTag } from "../store/provenance-store.ts";
import type { IndexContext } from "./context.ts";
import { familyFolders } from "./release-families.ts";
import { compareReleases, releaseName, type ReleaseName } from "./release-tags.ts";

const TAG_FORMAT = "%(refname:strip=2)%00%(objecttype)%00%(objectname)%00%(*objecttype)%00%(*objectname)";
/** git's arguments for the tags releases are read from. */
export const TAG_REFS_ARGS = ["for-each-ref", `--format=${TAG_FORMAT}`, "refs/tags"];

/** The release tags and the commit each names (an annotated tag's target), from `for-each-ref` output. */
export function releaseTagsOf(out: string): { name: ReleaseName; commit: string }[] {
  const tags: { name: ReleaseName; commit: string }[] = [];
  for (const line of out.split("\n")) {
    if (!line) continue;
    const [ref, type, id, peeledType, peeled] = line.split("\0");
    const commit = peeledType === "commit" ? peeled : type === "commit" ? id : undefined;
    const name = releaseName(ref!);
    if (commit && name) tags.push({ name, commit });
  }
  return tags;
}

/**
 * For each family, each commit the family's tags hold and the first of them (version order) that
 * holds it. A commit an earlier tag marked has its ancestors marked already: the walk stops there.
 */
export function firstReleases(tags: { name: ReleaseName; commit: string }[], parents: Map<string, string[]>): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  const sorted = [...tags].sort((a, b) => compareReleases(a.name, b.name));
  for (const { name, commit } of sorted) {
    let firsts = out.get(name.family);
    if (!firsts) out.set(name.family, (firsts = new Map()));
    const stack = [commit];
    while (stack.length) {
      const c = stack.pop()!;
      if (firsts.has(c) || !parents.has(c)) continue;
      firsts.set(c, name.tag);
      for (const p of parents.get(c)!) if (!firsts.has(p)) stack.push(p);
    }
  }
  return out;
}

/**
 * Reads the release tags again when they changed since the last read (the refs' stamp moved); returns whether they had.
 * A shallow clone cannot tell a commit's first release (it lacks the tags below its boundary and the
 * history that links a tag to a commit): it says none, and keeps the releases an imported whole
 * history brought (found in a full clone), never reading its own partial tags over them.
 */
export async function updateReleases(ix: IndexContext): Promise<boolean> {
  if (isShallow(ix.repo)) {
    if (ix.store.meta("historyWhole") === "1" || ix.store.meta("releaseTags") === "shallow") return false;
    ix.store.transaction(() => {
      ix.store.provenance.replaceReleases([], new Map());
      ix.store.setMeta("releaseTags", "shallow");
    });
    return true;
  }
  const out = await gitText(TAG_REFS_ARGS, ix.git);
  const tags = releaseTagsOf(out);
  const seen = createHash("sha1").update(JSON.stringify(tags.map((t) => [t.name.tag, t.commit]))).digest("hex");
  if (ix.store.meta("releaseTags") === seen) return false;
  const parents = new Map<string, string[]>();
  if (tags.length) {
    const graph = await gitText(["rev-list", "--parents", "--stdin", "--"], { ...ix.git, input: [...new Set(tags.map((t) => t.commit))].join("\n") + "\n" });
    for (const line of graph.split("\n")) {
      if (!line) continue;
      const [c, ...ps] = line.split(" ");
      parents.set(c!, ps);
    }
  }
  const firsts = firstReleases(tags, parents);
  const folders = await familyFolders(ix, new Set(tags.map((t) => t.name.family)));
  const rows: ReleaseTag[] = tags.map((t) => ({ tag: t.name.tag, family: t.name.family, folder: folders.get(t.name.family) ?? null }));
  ix.store.transaction(() => {
    ix.store.provenance.replaceReleases(rows, firsts);
    ix.store.setMeta("releaseTags", seen);
  });
  return true;
}

/** Which folder each monorepo release family (name@1.2.3) is the package of: the package.json at HEAD that bears the name. */
import { catBlobs } from "../git/cat-file.ts";
import { git } from "../git/run.ts";
import { parseLsTree } from "../git/parse-tree.ts";
import type { IndexContext } from "./context.ts";

/** Folder by family ('' for the repository's own releases); a family no package names is left out. */
export async function familyFolders(ix: IndexContext, families: Set<string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (families.has("")) out.set("", "");
  const named = [...families].filter((f) => f !== "");
  if (named.length === 0) return out;
  const head = ix.store.meta("indexedHead") ?? "HEAD";
  const manifests = parseLsTree(await git(["ls-tree", "-r", "-z", "--full-tree", head], ix.git)).filter((e) => e.type === "blob" && /(?:^|\/)package\.json$/.test(e.path));
  const folderOf = new Map(manifests.map((e) => [e.blob, e.path.slice(0, -"package.json".length).replace(/\/$/, "")]));
  const wanted = new Set(named);
  await catBlobs([...folderOf.keys()], ix.git, (blob, content) => {
    if (!content) return;
    try {
      const name = (JSON.parse(content.toString("utf8")) as { name?: unknown }).name;
      if (typeof name === "string" && wanted.has(name) && !out.has(name)) out.set(name, folderOf.get(blob)!);
    } catch {
      // Not JSON (a template): names no package.
    }
  });
  return out;
}

/** How owners is answered: blame lines per person summed per folder or file; the truck factor from each file's history. */
import { LoreError } from "../../errors.ts";
import { notAt, repoPath, round, treeAt } from "./common.ts";
import { ownerFacts } from "./owner-facts.ts";
import { truckFactor } from "./truck-factor.ts";
import type { OWNERS_ARGS, OwnersOutput } from "../owners.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";

const SYMLINK = "120000";
const ISLAND = 0.8;

const person = (who: string) => {
  const [author, email] = who.split("\0");
  return { author: author!, email: email! };
};

export async function run(ctx: QueryContext, input: Input<typeof OWNERS_ARGS>): Promise<OwnersOutput> {
  if (input.by !== "file" && input.by !== "folder") throw new LoreError("BAD_ARGUMENT", `by must be "file" or "folder", not "${input.by}".`);
  const scope = await ctx.index.scope(input.until);
  const prefix = repoPath(ctx, input.path);
  const entries = (await treeAt(ctx, scope, prefix)).filter((e) => e.type === "blob" && e.mode !== SYMLINK);
  if (prefix !== "" && entries.length === 0) throw notAt(ctx, scope, prefix, "has no files");
  const facts = await ownerFacts(ctx, scope, entries, input.ignoreRevs);

  // A row per file, or per folder (or file) right below the path.
  const isFile = entries.length === 1 && entries[0]!.path === prefix;
  const rowOf = (path: string) => {
    if (input.by === "file" || isFile) return path;
    const rest = prefix === "" ? path : path.slice(prefix.length + 1);
    const slash = rest.indexOf("/");
    return slash < 0 ? path : (prefix === "" ? "" : prefix + "/") + rest.slice(0, slash);
  };
  const rows = new Map<string, { files: number; lines: Map<string, number>; coLines: Map<string, number> }>();
  let total = 0;
  for (const e of entries) {
    const id = rowOf(e.path);
    const row = rows.get(id) ?? { files: 0, lines: new Map<string, number>(), coLines: new Map<string, number>() };
    row.files++;
    rows.set(id, row);
    const people = facts.get(e.path)!.people;
    if (!people) continue;
    for (const [who, n] of people.lines) {
      row.lines.set(who, (row.lines.get(who) ?? 0) + n);
      total += n;
    }
    for (const [who, n] of people.coLines) row.coLines.set(who, (row.coLines.get(who) ?? 0) + n);
  }
  const results = [...rows].map(([path, row]) => {
    let lines = 0;
    let main: [string, number] | undefined;
    for (const [who, n] of row.lines) {
      lines += n;
      if (!main || n > main[1] || (n === main[1] && who < main[0])) main = [who, n];
    }
    const share = main && lines ? main[1] / lines : 0;
    const coLines = main ? row.coLines.get(main[0]) : undefined;
    return { path, files: row.files, lines, ...(main ? { main: { ...person(main[0]), share: round(share, 2), ...(coLines ? { coLines } : {}) } } : {}), authors: row.lines.size, island: share >= ISLAND };
  });
  results.sort((x, y) => y.lines - x.lines || y.files - x.files || (x.path < y.path ? -1 : 1));

  // The truck factor counts every file under the path with history, by degree-of-authorship.
  const tf = truckFactor(entries.flatMap((e) => {
    const a = facts.get(e.path)!.authors;
    return a ? [a] : [];
  }));
  return {
    repo: ctx.index.repo.root,
    path: prefix,
    rev: scope.commit,
    lines: total,
    files: entries.length,
    truckFactor: tf.factor,
    truckAuthors: tf.people.map(person),
    results: results.slice(0, input.limit),
    truncated: results.length > input.limit,
  };
}

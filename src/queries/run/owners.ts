/** How owners is answered: blame lines per person summed per folder or file; the truck factor from each file's history. */
import { codeownersAt, codeownersFields, declaredFields } from "./codeowners.ts";
import { addAgentLines, agentShares } from "./agent-shares.ts";
import { stopsField } from "./history-stops.ts";
import { failedBlames, leftOut } from "../../index/blame.ts";
import { blameTarget } from "./blame-file.ts";
import { LoreError } from "../../errors.ts";
import { notAt, repoPath, round, treeAt } from "./common.ts";
import { withoutNoise } from "./noise-files.ts";
import { ownerFacts } from "./owner-facts.ts";
import { truckFactor } from "./truck-factor.ts";
import type { OWNERS_ARGS, OwnersOutput } from "../owners.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";

const SYMLINK = "120000";
const ISLAND = 0.8;
/** The people an answer names as the path's owners: who to ask, not a census (contributors has everyone). */
const TOP_AUTHORS = 3;

const person = (who: string) => {
  const [author, email] = who.split("\0");
  return { author: author!, email: email! };
};

export async function run(ctx: QueryContext, input: Input<typeof OWNERS_ARGS>): Promise<OwnersOutput> {
  if (input.by !== undefined && input.by !== "file" && input.by !== "folder") throw new LoreError("BAD_ARGUMENT", `--by takes "file" or "folder", not "${input.by}".`);
  const scope = await ctx.index.scope(input.until);
  const prefix = repoPath(ctx, input.path);
  const files = (await treeAt(ctx, scope, prefix)).filter((e) => e.type === "blob" && e.mode !== SYMLINK);
  if (prefix !== "" && files.length === 0) throw notAt(ctx, scope, prefix, "has no files");
  // A lockfile's lines were written by a package manager, a generated file's by a build: nobody's knowledge.
  const entries = await withoutNoise(ctx, scope, files, input.all);
  const { files: facts, people } = await ownerFacts(ctx, scope, entries, input.ignoreRevs);

  // A row per file, or per folder (or file) right below the path.
  const isFile = entries.length === 1 && entries[0]!.path === prefix;
  const rowOf = (path: string) => {
    if (input.by === "file" || isFile) return path;
    const rest = prefix === "" ? path : path.slice(prefix.length + 1);
    const slash = rest.indexOf("/");
    return slash < 0 ? path : (prefix === "" ? "" : prefix + "/") + rest.slice(0, slash);
  };
  // Lines per person number, and co-authored lines, in each row.
  const rows = new Map<string, { files: number; paths: string[]; lines: Map<number, number>; coLines: Map<number, number>; before: number; agents: Map<string, number> }>();
  // Lines of agent-credited commits, beside the people who wrote them (an agent owns nothing).
  const agentLines = new Map<string, number>();
  let total = 0;
  let before = 0;
  for (const e of entries) {
    const id = rowOf(e.path);
    let row = rows.get(id);
    if (!row) rows.set(id, (row = { files: 0, paths: [], lines: new Map(), coLines: new Map(), before: 0, agents: new Map() }));
    row.files++;
    row.paths.push(e.path);
    const p = facts.get(e.path)!.people;
    if (!p) continue;
    // Lines from before a shallow clone's history count in the row's lines, under nobody's name.
    row.before += p.before;
    before += p.before;
    total += p.before;
    for (let i = 0; i < p.who.length; i++) {
      row.lines.set(p.who[i]!, (row.lines.get(p.who[i]!) ?? 0) + p.lines[i]!);
      total += p.lines[i]!;
    }
    for (const [agent, n] of p.agents) {
      addAgentLines(row.agents, agent, n);
      addAgentLines(agentLines, agent, n);
    }
    for (let i = 0; i < p.coWho.length; i++) row.coLines.set(p.coWho[i]!, (row.coLines.get(p.coWho[i]!) ?? 0) + p.coLines[i]!);
  }
  // Declared owners (CODEOWNERS at the commit) beside the actual ones, and where they drift apart.
  const codeowners = await codeownersAt(ctx, scope.commit);
  const results = [...rows].map(([path, row]) => {
    let lines = row.before;
    let main: [string, number, number] | undefined;
    for (const [id, n] of row.lines) {
      lines += n;
      const who = people.names[id]!;
      if (!main || n > main[1] || (n === main[1] && who < main[0])) main = [who, n, id];
    }
    const share = main && lines ? main[1] / lines : 0;
    const coLines = main ? row.coLines.get(main[2]) : undefined;
    const agents = agentShares(row.agents, lines);
    const declared = declaredFields(codeowners, row.paths, [...row.lines.keys()].map((id) => people.names[id]!));
    return { path, files: row.files, lines, ...(main ? { main: { ...person(main[0]), share: round(share, 2), ...(coLines ? { coLines } : {}) } } : {}), authors: row.lines.size, island: share >= ISLAND, ...(agents ? { agents } : {}), ...declared };
  });
  results.sort((x, y) => y.lines - x.lines || y.files - x.files || (x.path < y.path ? -1 : 1));

  // Who owns the path itself: lines per person over every row.
  const byPerson = new Map<number, number>();
  for (const row of rows.values()) for (const [id, n] of row.lines) byPerson.set(id, (byPerson.get(id) ?? 0) + n);
  const authors = [...byPerson]
    .map(([id, n]) => ({ ...person(people.names[id]!), lines: n, share: total ? round(n / total, 2) : 0 }))
    .sort((x, y) => y.lines - x.lines || (x.author < y.author ? -1 : x.author > y.author ? 1 : x.email < y.email ? -1 : 1));

  // The truck factor counts every file under the path with history, by degree-of-authorship.
  const tf = truckFactor(
    entries.flatMap((e) => {
      const a = facts.get(e.path)!.authors;
      return a ? [a] : [];
    }),
    people.names,
  );
  // Files git could not blame (a damaged clone) own nothing here, and are named with the reason.
  const left = failedBlames(ctx.index).count ? leftOut(ctx.index, entries.map((e) => blameTarget(ctx, scope, e, input.ignoreRevs))) : [];
  return {
    repo: ctx.index.repo.root,
    path: prefix,
    rev: scope.commit,
    lines: total,
    files: entries.length,
    // In a shallow clone whose files all were there at its boundary, no file's authors are known: no truck factor.
    truckFactor: before && tf.factor === 0 ? null : tf.factor,
    truckAuthors: tf.people.map(person),
    authors: authors.slice(0, TOP_AUTHORS),
    ...(agentShares(agentLines, total) ? { agents: agentShares(agentLines, total) } : {}),
    ...declaredFields(codeowners, entries.map((e) => e.path), [...byPerson.keys()].map((id) => people.names[id]!)),
    ...codeownersFields(codeowners),
    ...(input.by ? { results: results.slice(0, input.limit) } : {}),
    truncated: input.by ? results.length > input.limit : authors.length > TOP_AUTHORS,
    ...(left.length ? { leftOut: left } : {}),
    ...(before ? { beforeHistory: before, ...(await stopsField(ctx, undefined, true)) } : {}),
  };
}

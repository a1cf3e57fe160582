/** How contributors is answered: blame every text file under the path and sum lines per author, and per co-author. */
import { isAgentIdentity } from "../../index/agents.ts";
import { addAgentLines, agentShares, agentsByCommit } from "./agent-shares.ts";
import { boundaryCommit, blameBoundaryOf, historyStops } from "./history-stops.ts";
import { LoreError } from "../../errors.ts";
import { blameMany, leftOut } from "../../index/blame.ts";
import { filesDone } from "../partial.ts";
import { blameTarget } from "./blame-file.ts";
import { coauthorsOf } from "./coauthors.ts";
import { iso, notAt, repoPath, round, treeAt } from "./common.ts";
import { withoutNoise } from "./noise-files.ts";
import { identities } from "./identity.ts";
import { commitsByPerson, isBot } from "./contributor-commits.ts";
import type { CONTRIBUTORS_ARGS, ContributorsOutput } from "../contributors.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";

const SYMLINK = "120000";

interface Person {
  author: string;
  email: string;
  lines: number;
  commits: number;
  last: number;
  coLines: number;
  coCommits: number;
  /** Lines of the person's commits an agent is credited with. */
  agentLines: number;
}

export async function run(ctx: QueryContext, input: Input<typeof CONTRIBUTORS_ARGS>): Promise<ContributorsOutput> {
  if (input.by !== undefined && input.by !== "lines" && input.by !== "commits" && input.by !== "agent") throw new LoreError("BAD_ARGUMENT", `--by takes "lines", "commits" or "agent", not ${JSON.stringify(input.by)}.`);
  const scope = await ctx.index.scope(input.until);
  const prefix = repoPath(ctx, input.path);
  const files = (await treeAt(ctx, scope, prefix)).filter((e) => e.type === "blob" && e.mode !== SYMLINK);
  if (prefix !== "" && files.length === 0) throw notAt(ctx, scope, prefix, "has no files");
  // A lockfile's lines were written by a package manager, a generated file's by a build: nobody's knowledge.
  const entries = await withoutNoise(ctx, scope, files, input.all);
  const targets = entries.map((e) => blameTarget(ctx, scope, e, input.ignoreRevs));
  const blames = [...(await blameMany(ctx.index, targets, ctx.blameWorkers, filesDone(ctx.partial, targets.length))).values()].filter((b) => !b.binary);
  const store = ctx.index.store.blame;
  const bySha = new Map<string, number>();
  for (const b of blames) for (const [sha, n] of store.linesByCommit(b.id)) bySha.set(sha, (bySha.get(sha) ?? 0) + n);
  const facts = store.commits(bySha.keys());
  // One person, one row: the authors sharing an email are counted as one (identity.ts).
  const ids = await identities(ctx);
  const key = (sha: string) => {
    const c = facts.get(sha);
    return c && ids.of(c.author, c.email);
  };
  const people = new Map<string, Person>();
  const personOf = (who: string) => {
    let p = people.get(who);
    if (!p) {
      const [author, email] = who.split("\0");
      people.set(who, (p = { author: author!, email: email!, lines: 0, commits: 0, last: 0, coLines: 0, coCommits: 0, agentLines: 0 }));
    }
    return p;
  };
  // Lines git pins on a shallow clone's boundary commit were written there or before: nobody here is credited with them.
  const boundary = await blameBoundaryOf(ctx);
  let before = 0;
  const stopped: string[] = [];
  for (const sha of [...bySha.keys()]) {
    if (!boundaryCommit(boundary, sha)) continue;
    stopped.push(sha);
    before += bySha.get(sha)!;
    bySha.delete(sha);
  }
  const agentOf = agentsByCommit(ctx);
  const agentLines = new Map<string, number>();
  for (const [sha, n] of bySha) {
    const who = key(sha);
    if (!who) continue;
    const p = personOf(who);
    p.lines += n;
    const agent = agentOf.get(sha);
    addAgentLines(agentLines, agent, n);
    if (agent) p.agentLines += n;
    p.commits++;
    p.last = Math.max(p.last, facts.get(sha)!.time);
  }
  // Lines a co-author helped write count for them beside the author's own, never twice in the total.
  for (const [sha, names] of await coauthorsOf(ctx, bySha.keys(), key, ids.ofKey)) {
    for (const who of names) {
      // An agent named as co-author is counted in agents, never as a person.
      if (isAgentIdentity(...(who.split("\0") as [string, string]))) continue;
      const p = personOf(who);
      p.coLines += bySha.get(sha)!;
      p.coCommits++;
      p.last = Math.max(p.last, facts.get(sha)!.time);
    }
  }
  // commits: as git shortlog -s counts them under the path; with by commits, those with no line left count too.
  const byPath = await commitsByPerson(ctx, scope, prefix, ids);
  for (const p of people.values()) p.commits = 0;
  for (const [who, c] of byPath) {
    if (!people.has(who) && input.by !== "commits") continue;
    const p = personOf(who);
    p.commits = c.commits;
    // Someone with no line left: when they last changed the path.
    if (p.last === 0) p.last = c.last;
  }
  let total = before;
  for (const n of bySha.values()) total += n;
  const byLines = (x: Person, y: Person) => y.lines - x.lines || y.coLines - x.coLines;
  const order =
    input.by === "commits" ? (x: Person, y: Person) => y.commits - x.commits || byLines(x, y) : input.by === "agent" ? (x: Person, y: Person) => y.agentLines - x.agentLines || byLines(x, y) : byLines;
  const results = [...people.values()]
    .map((a) => ({ ...a, bot: isBot(a.author, a.email) }))
    // People first, then the bots (someone to ask, and someone not to).
    .sort((x, y) => Number(x.bot) - Number(y.bot) || order(x, y) || (x.author < y.author ? -1 : x.author > y.author ? 1 : x.email < y.email ? -1 : 1))
    .map((a) => ({
      author: a.author,
      email: a.email,
      lines: a.lines,
      share: total ? round(a.lines / total, 2) : 0,
      commits: a.commits,
      lastChanged: iso(a.last),
      ...(a.coCommits ? { coLines: a.coLines, coCommits: a.coCommits } : {}),
      ...(a.agentLines ? { agentLines: a.agentLines } : {}),
      ...(a.bot ? { bot: true as const } : {}),
    }));
  // Files git could not blame (a damaged clone) are counted out, and named with the reason.
  const left = leftOut(ctx.index, targets);
  const agents = agentShares(agentLines, total);
  return { repo: ctx.index.repo.root, path: prefix, rev: scope.commit, totalLines: total, files: blames.length, results: results.slice(0, input.limit), ...(agents ? { agents } : {}), truncated: results.length > input.limit, ...(left.length ? { leftOut: left } : {}), ...(before ? { beforeHistory: before, historyStops: historyStops(boundary, stopped) } : {}) };
}

/**
 * Who commits under a path, as git shortlog -s counts them (every commit git log -- PATH lists, the
 * mailmap applied, one row a person), and who is a bot: a `[bot]` name or a bot's noreply address.
 */
import { gitText } from "../../git/run.ts";
import type { Scope } from "../../index/repo-index.ts";
import { overWhole } from "../../index/shallow-order.ts";
import type { QueryContext } from "../context.ts";
import { logRows } from "./log-commits.ts";
import type { Identities, PersonKey } from "./identity.ts";

/** Commits per person of `git log COMMIT -- PATH` (the whole history for ""), and the time of their newest. */
export async function commitsByPerson(ctx: QueryContext, scope: Scope, path: string, ids: Identities): Promise<Map<PersonKey, { commits: number; last: number }>> {
  const out = new Map<PersonKey, { commits: number; last: number }>();
  const add = (name: string, email: string, time: number) => {
    const who = ids.of(name, email);
    const seen = out.get(who) ?? { commits: 0, last: 0 };
    out.set(who, { commits: seen.commits + 1, last: Math.max(seen.last, time) });
  };
  // A shallow clone's git sees only its own commits; a whole history imported below its boundary is walked in the index.
  if (overWhole(ctx.index)) {
    for (const c of await logRows(ctx, scope, { paths: path === "" ? [] : [path], limit: Number.MAX_SAFE_INTEGER })) add(c.author, c.email, c.time);
    return out;
  }
  const text = await gitText(["--literal-pathspecs", "log", "--use-mailmap", "--format=%aN%x00%aE%x00%at", scope.commit, "--", ...(path === "" ? [] : [path])], ctx.index.git);
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const [name, email, time] = line.split("\0");
    add(name!, email ?? "", Number(time));
  }
  return out;
}

/** dependabot[bot], renovate[bot] <29139614+renovate[bot]@users.noreply.github.com>, github-actions <…bot@noreply…>. */
export function isBot(author: string, email: string): boolean {
  const local = email.slice(0, email.lastIndexOf("@")).toLowerCase();
  return /\[bot\]$/i.test(author.trim()) || /\[bot\]$/.test(local) || (/no-?reply/i.test(email) && /(^|[^a-z])bot$|-bot$|\[bot\]$/.test(local));
}

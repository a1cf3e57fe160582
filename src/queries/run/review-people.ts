/** Whom to ask about a change: the authors of the lines it rewrites, by lines, the person asking left out. */
import type { BlameCommit } from "../../git/records.ts";
import type { Identities } from "./identity.ts";

export interface Asked {
  author: string;
  email: string;
  lines: number;
}

/**
 * One row per person (identity.ts: the same email in any case is one person, named by the
 * mailmap or their newest commit). The user is left out by email, case aside.
 */
export function peopleOf(lines: ReadonlyMap<string, number>, facts: ReadonlyMap<string, BlameCommit>, userEmail: string | undefined, limit: number, ids: Identities): Asked[] {
  const me = userEmail?.trim().toLowerCase();
  const people = new Map<string, number>();
  for (const [sha, n] of lines) {
    const c = facts.get(sha);
    if (!c || (me && c.email.toLowerCase() === me)) continue;
    const who = ids.of(c.author, c.email);
    people.set(who, (people.get(who) ?? 0) + n);
  }
  return [...people]
    .map(([who, n]) => {
      const [author, email] = who.split("\0") as [string, string];
      return { author, email, lines: n };
    })
    .filter((p) => !(me && p.email.toLowerCase() === me))
    .sort((x, y) => y.lines - x.lines || (x.author < y.author ? -1 : x.author > y.author ? 1 : 0))
    .slice(0, limit);
}

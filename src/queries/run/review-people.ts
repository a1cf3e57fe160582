/** Whom to ask about a change: the authors of the lines it rewrites, by lines, the person asking left out. */
import type { BlameCommit } from "../../git/records.ts";

export interface Asked {
  author: string;
  email: string;
  lines: number;
}

/**
 * One row per person: the same email (case aside) is one person, named as their most recent
 * commit names them (blame's names are the mailmap's already). The user is matched by email.
 */
export function peopleOf(lines: ReadonlyMap<string, number>, facts: ReadonlyMap<string, BlameCommit>, userEmail: string | undefined, limit: number): Asked[] {
  const me = userEmail?.trim().toLowerCase();
  const people = new Map<string, Asked & { time: number }>();
  for (const [sha, n] of lines) {
    const c = facts.get(sha);
    if (!c) continue;
    const key = c.email.toLowerCase();
    if (me && key === me) continue;
    const p = people.get(key);
    if (!p) people.set(key, { author: c.author, email: c.email, lines: n, time: c.time });
    else {
      p.lines += n;
      if (c.time > p.time) Object.assign(p, { author: c.author, email: c.email, time: c.time });
    }
  }
  return [...people.values()]
    .sort((x, y) => y.lines - x.lines || (x.author < y.author ? -1 : x.author > y.author ? 1 : 0))
    .slice(0, limit)
    .map(({ author, email, lines: n }) => ({ author, email, lines: n }));
}

/** Co-authors: the people a commit's `Co-authored-by:` trailers name, through the repository's mailmap. */
import { gitText } from "../../git/run.ts";
import { coauthoredMessages } from "../../store/ownership-store.ts";
import type { QueryContext } from "../context.ts";

const TRAILER = /^co-authored-by:[ \t]*(.*?)[ \t]*<([^<>\n]*)>[ \t]*$/gim;

/** Mailmapped identities ("name\0email") by what a trailer said, per index state (a new mailmap empties the index). */
const mapped = new WeakMap<object, Map<string, string>>();

/** Who each trailer names, as written ("Name <email>"): pure, for tests. */
export function trailerPeople(message: string): string[] {
  return [...message.matchAll(TRAILER)].map((m) => (m[1] ? `${m[1]} <${m[2]}>` : `<${m[2]}>`));
}

async function mailmap(ctx: QueryContext, idents: string[]): Promise<Map<string, string>> {
  let known = mapped.get(ctx.index.store);
  if (!known) mapped.set(ctx.index.store, (known = new Map()));
  const missing = [...new Set(idents.filter((i) => !known!.has(i)))];
  for (let i = 0; i < missing.length; i += 200) {
    const batch = missing.slice(i, i + 200);
    const out = (await gitText(["check-mailmap", ...batch], ctx.index.git).catch(() => batch.join("\n"))).split("\n");
    batch.forEach((ident, k) => {
      const m = /^(.*?)\s*<([^<>]*)>$/.exec(out[k] ?? "") ?? /^(.*?)\s*<([^<>]*)>$/.exec(ident)!;
      known!.set(ident, `${m[1]}\0${m[2]}`);
    });
  }
  return known;
}

/** The co-authors ("name\0email", mailmap applied) of each of `shas` that has any; a commit's own author is not its co-author. */
export async function coauthorsOf(ctx: QueryContext, shas: Iterable<string>, authorOf: (sha: string) => string | undefined): Promise<Map<string, string[]>> {
  const messages = coauthoredMessages(ctx.index.store.db, [...shas]);
  const named = new Map([...messages].map(([sha, m]) => [sha, trailerPeople(m)]));
  const map = await mailmap(ctx, [...named.values()].flat());
  const out = new Map<string, string[]>();
  for (const [sha, idents] of named) {
    const people = [...new Set(idents.map((i) => map.get(i)!))].filter((p) => p !== authorOf(sha));
    if (people.length) out.set(sha, people);
  }
  return out;
}

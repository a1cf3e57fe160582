/** Co-authors: the people a commit's `Co-authored-by:` trailers name, through the repository's mailmap. */
import { gitText } from "../../git/run.ts";
import { coauthoredMessages } from "../../store/ownership-store.ts";
import type { QueryContext } from "../context.ts";

const TRAILER = /^co-authored-by:[ \t]*(.*?)[ \t]*<([^<>\n]*)>[ \t]*$/gim;

/** Mailmapped identities ("name\0email") by what a trailer said, per index (a new mailmap empties the index and starts a new map). */
const mapped = new WeakMap<object, { mailmap: string | undefined; idents: Map<string, string>; bySha: Map<string, string[]> }>();

/** What is remembered for this index: reset when its mailmap changed. */
function memoOf(ctx: QueryContext) {
  const mailmap = ctx.index.store.meta("mailmap");
  let m = mapped.get(ctx.index.store);
  if (!m || m.mailmap !== mailmap) mapped.set(ctx.index.store, (m = { mailmap, idents: new Map(), bySha: new Map() }));
  if (m.bySha.size > 500_000) m.bySha.clear();
  return m;
}

/** Who each trailer names, as written ("Name <email>"): pure, for tests. */
export function trailerPeople(message: string): string[] {
  return [...message.matchAll(TRAILER)].map((m) => (m[1] ? `${m[1]} <${m[2]}>` : `<${m[2]}>`));
}

async function mailmap(ctx: QueryContext, idents: string[]): Promise<Map<string, string>> {
  const known = memoOf(ctx).idents;
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

/**
 * The co-authors ("name\0email", mailmap applied, then `person` of it: the identity the caller
 * counts) of each of `shas` that has any; a commit's own author is not its co-author.
 */
export async function coauthorsOf(
  ctx: QueryContext,
  shas: Iterable<string>,
  authorOf: (sha: string) => string | undefined,
  person: (who: string) => string = (who) => who,
): Promise<Map<string, string[]>> {
  // Each commit's trailers are read once per index: a commit's message never changes.
  const { bySha } = memoOf(ctx);
  const all = [...shas];
  const unknown = all.filter((s) => !bySha.has(s));
  if (unknown.length) {
    const named = new Map([...coauthoredMessages(ctx.index.store.db, unknown)].map(([sha, m]) => [sha, trailerPeople(m)]));
    const map = await mailmap(ctx, [...named.values()].flat());
    for (const sha of unknown) bySha.set(sha, [...new Set((named.get(sha) ?? []).map((i) => map.get(i)!))]);
  }
  const out = new Map<string, string[]>();
  for (const sha of all) {
    const named = bySha.get(sha)!;
    if (named.length === 0) continue;
    const author = authorOf(sha);
    const people = [...new Set(named.map(person))].filter((p) => p !== author);
    if (people.length) out.set(sha, people);
  }
  return out;
}

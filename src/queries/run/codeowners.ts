/** The CODEOWNERS a commit holds (.github/, the root, docs/, .gitlab/: the first found), and whether a declared owner is a person who wrote something. */
import { catBlobs } from "../../git/cat-file.ts";
import { ownersOf, parseCodeowners, type Codeowners } from "../../git/parse-codeowners.ts";
import type { QueryContext } from "../context.ts";

export const CODEOWNERS_PLACES = [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS", ".gitlab/CODEOWNERS"];

export interface Declared extends Codeowners {
  /** The file read. */
  file: string;
}

const read = new Map<string, Declared | null>();

/** The commit's CODEOWNERS, parsed; null when it has none. */
export async function codeownersAt(ctx: QueryContext, commit: string): Promise<Declared | null> {
  const key = `${ctx.index.repo.commonDir}\0${commit}`;
  if (read.has(key)) return read.get(key)!;
  const found = new Map<string, string>();
  // cat-file names an object found by its id, not by the name asked: the answers come in the order asked.
  let next = 0;
  await catBlobs(CODEOWNERS_PLACES.map((p) => `${commit}:${p}`), ctx.index.git, (_id, content) => {
    const place = CODEOWNERS_PLACES[next++]!;
    if (content) found.set(place, content.toString("utf8"));
  });
  const file = CODEOWNERS_PLACES.find((p) => found.has(p));
  const out = file ? { file, ...parseCodeowners(found.get(file)!) } : null;
  if (read.size > 100) read.clear();
  read.set(key, out);
  return out;
}

/** The declared owners of several paths together, those of the most paths first. */
export function declaredFor(c: Codeowners, paths: Iterable<string>): string[] {
  const count = new Map<string, number>();
  for (const p of paths) for (const o of ownersOf(c, p)) count.set(o, (count.get(o) ?? 0) + 1);
  // A stable sort: owners of as many paths keep the order CODEOWNERS names them in.
  return [...count].sort((x, y) => y[1] - x[1]).map(([o]) => o);
}

/**
 * Whether a declared owner is this person (author name and email): an email owner by its
 * address, @user by a GitHub noreply address, the email's name or the author's name; a team
 * (@org/team) is never known to be anyone (undefined).
 */
export function isOwner(owner: string, author: string, email: string): boolean | undefined {
  const e = email.toLowerCase();
  if (!owner.startsWith("@")) return owner.toLowerCase() === e;
  if (owner.includes("/")) return undefined;
  const user = owner.slice(1).toLowerCase();
  const local = e.split("@")[0]!.replace(/^\d+\+/, "");
  return local === user || author.toLowerCase() === user;
}

/** The declared owners (people, not teams) who wrote none of the lines of `people` ("name\0email"): where the declaration and the history drift apart. */
export function drift(declared: string[], people: Iterable<string>): string[] {
  const who = [...people].map((p) => p.split("\0") as [string, string]);
  return declared.filter((o) => {
    const known = who.map(([a, e]) => isOwner(o, a, e));
    return !known.includes(true) && !(o.startsWith("@") && o.includes("/"));
  });
}

/** `declared` (CODEOWNERS' owners of the paths) and `drift` (those of them who wrote none of the lines of `people`), only where there are some. */
export function declaredFields(c: Codeowners | null, paths: Iterable<string>, people: Iterable<string>): { declared?: string[]; drift?: string[] } {
  if (!c) return {};
  const declared = declaredFor(c, paths);
  if (declared.length === 0) return {};
  const off = drift(declared, people);
  return { declared, ...(off.length ? { drift: off } : {}) };
}

/** The file read and the lines it could not read, for an answer that used it. */
export function codeownersFields(c: Declared | null): { codeowners?: string; codeownersErrors?: string[] } {
  if (!c) return {};
  return { codeowners: c.file, ...(c.errors.length ? { codeownersErrors: c.errors } : {}) };
}

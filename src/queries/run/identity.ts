/**
 * One person, one row: the authors (as git prints them, mailmap applied) who share a specific
 * email, in any case, are one person, named by the mailmap when it names that email, else by the
 * name on their newest commit. A shared or placeholder email (root@localhost, noreply@github.com,
 * no "@") joins no one. Questions that count people (contributors, owners, the truck factor,
 * review's people) count identities; blame's and log's names stay as git prints them.
 */
import { gitText } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";

/** People are "name\0email" keys, as the questions that count them already use. */
export type PersonKey = string;

export interface Identities {
  /** The person an author (name and email as git prints them) is. */
  of(author: string, email: string): PersonKey;
  /** The same for a "name\0email" key. */
  ofKey(who: PersonKey): PersonKey;
}

const LOCAL_PARTS = new Set(["root", "noreply", "no-reply", "no_reply", "donotreply", "do-not-reply", "none", "nobody", "unknown", "user", "admin", "anonymous", "invalid", "git", "email", "mail"]);
const DOMAINS = /^(localhost(\.localdomain)?|\(none\)|none|unknown|invalid|.*\.(local|localdomain|invalid))$/;

/** Whether an email names no one in particular, so that people who share it are not one person. */
export function sharedEmail(email: string): boolean {
  const e = email.trim().toLowerCase();
  const at = e.lastIndexOf("@");
  if (at <= 0 || at === e.length - 1) return true;
  const local = e.slice(0, at);
  const domain = e.slice(at + 1);
  return LOCAL_PARTS.has(local) || DOMAINS.test(domain) || !domain.includes(".");
}

/** What a person's name and email are chosen from: every name an email was seen under, and when last. */
export interface Seen {
  author: string;
  email: string;
  /** The newest author time of a commit under this name and email. */
  time: number;
}

/**
 * The person each (author, email) is: pure, for tests. `mailmapName` gives the name the mailmap
 * maps an email to, when it maps it by email alone.
 */
export function groupIdentities(seen: Iterable<Seen>, mailmapName: (email: string) => string | undefined = () => undefined): Map<PersonKey, PersonKey> {
  const groups = new Map<string, Seen[]>();
  for (const s of seen) {
    if (sharedEmail(s.email)) continue;
    const k = s.email.toLowerCase();
    const g = groups.get(k);
    if (g) g.push(s);
    else groups.set(k, [s]);
  }
  const out = new Map<PersonKey, PersonKey>();
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    // Newest first; among equal times the name that sorts first, so the choice never depends on order.
    const newest = g.reduce((a, b) => (b.time > a.time || (b.time === a.time && `${b.author}\0${b.email}` < `${a.author}\0${a.email}`) ? b : a));
    const named = mailmapName(newest.email);
    const person = `${named ?? newest.author}\0${newest.email}`;
    for (const s of g) out.set(`${s.author}\0${s.email}`, person);
  }
  return out;
}

interface Memo {
  mailmap: string | undefined;
  /** commit_rows and blame_commits read up to these ids. */
  commits: number;
  blames: number;
  /** people read up to this id. */
  person: number;
  newest: Map<number, number>;
  people: Map<number, { author: string; email: string }>;
  mailmapNames: Map<string, string | null>;
  map: Map<PersonKey, PersonKey>;
}

const memos = new WeakMap<object, Memo>();
/** The refresh under way per index: a question that comes while another asks the mailmap waits for its map, never reads the old one. */
const refreshing = new WeakMap<object, Promise<void>>();

/** The identities of the index's people: the commits read once, then only the new ones. */
export async function identities(ctx: QueryContext): Promise<Identities> {
  const { store } = ctx.index;
  for (let r = refreshing.get(store); r; r = refreshing.get(store)) await r.catch(() => {});
  const db = store.db;
  const mailmap = store.meta("mailmap");
  let m = memos.get(store);
  const maxCommit = Number(db.prepare("SELECT coalesce(max(id), 0) AS n FROM commit_rows").get()!.n);
  const maxBlame = Number(db.prepare("SELECT coalesce(max(id), 0) AS n FROM blame_commits").get()!.n);
  // A new mailmap empties the index; so may a rewritten history: then every commit is read again.
  if (!m || m.mailmap !== mailmap || maxCommit < m.commits || maxBlame < m.blames)
    memos.set(store, (m = { mailmap, commits: 0, blames: 0, person: 0, newest: new Map(), people: new Map(), mailmapNames: new Map(), map: new Map() }));
  if (maxCommit > m.commits || maxBlame > m.blames || m.people.size === 0) {
    const newest = m.newest;
    const note = (rows: Record<string, unknown>[]) => {
      for (const r of rows) {
        const id = Number(r.person);
        const t = Number(r.time);
        if (!(newest.get(id)! >= t)) newest.set(id, t);
      }
    };
    note(db.prepare("SELECT person_id AS person, max(time) AS time FROM commit_rows WHERE id > ? GROUP BY person_id").all(m.commits));
    note(db.prepare("SELECT person_id AS person, max(time) AS time FROM blame_commits WHERE id > ? GROUP BY person_id").all(m.blames));
    m.commits = maxCommit;
    m.blames = maxBlame;
    for (const r of db.prepare("SELECT id, author, email FROM people WHERE id > ? ORDER BY id").all(m.person)) {
      m.person = Number(r.id);
      m.people.set(m.person, { author: String(r.author), email: String(r.email) });
    }
    const seen: Seen[] = [];
    for (const [id, p] of m.people) {
      const time = newest.get(id);
      if (time !== undefined) seen.push({ ...p, time });
    }
    // Ask the mailmap only about emails seen under several names (one git call, remembered).
    const multi = [...groupIdentities(seen).values()].map((k) => k.slice(k.indexOf("\0") + 1));
    const ask = [...new Set(multi)].filter((e) => !m!.mailmapNames.has(e));
    const memo = m;
    const done = (ask.length ? askMailmap(ctx, ask, memo.mailmapNames) : Promise.resolve()).then(() => {
      memo.map = groupIdentities(seen, (e) => memo.mailmapNames.get(e) ?? undefined);
    });
    refreshing.set(store, done);
    try {
      await done;
    } finally {
      if (refreshing.get(store) === done) refreshing.delete(store);
    }
  }
  const map = m.map;
  const ofKey = (who: PersonKey) => map.get(who) ?? who;
  return { ofKey, of: (author, email) => ofKey(`${author}\0${email}`) };
}

/** The name the mailmap gives each email by itself (`git check-mailmap "<email>"`), null where it gives none. */
async function askMailmap(ctx: QueryContext, emails: string[], into: Map<string, string | null>): Promise<void> {
  for (let i = 0; i < emails.length; i += 200) {
    const batch = emails.slice(i, i + 200);
    const out = (await gitText(["check-mailmap", ...batch.map((e) => `<${e}>`)], ctx.index.git).catch(() => "")).split("\n");
    batch.forEach((e, k) => {
      const name = /^(.*?)\s*<[^<>]*>$/.exec(out[k] ?? "")?.[1];
      into.set(e, name ? name : null);
    });
  }
}

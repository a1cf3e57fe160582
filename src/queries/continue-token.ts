/**
 * The continue token: where each list of an answer goes on (the items already sent), sealed with an
 * HMAC over what the answer is about — repository, question and its arguments, HEAD, and the state
 * of the files that change answers without a commit — under a secret of this lore home. A token from
 * another question, repository, HEAD or state, or one changed by a character, opens to nothing:
 * BAD_CONTINUE, never a wrong page. Digits only: `"continue":"…"` stays within 10 tokens an agent reads.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LoreError } from "../errors.ts";
import { loreHome } from "../home.ts";

/** What a token is bound to. */
export interface Bound {
  root: string;
  name: string;
  /** The checked input as asked (no continue, deadline, budget or ticket). */
  input: Record<string, unknown>;
  head: string;
  /** For a question about the file on disk: the file's stamp. */
  disk?: string;
  /** What changes answers without moving HEAD (mailmap, shallow, ignore-revs; the staging area where the question reads it). */
  state: string;
}

/** Per list of the answer, in the question's order: the items sent so far, or null once the list is done. */
export type Offsets = (number | null)[];

const MAC_DIGITS = 9;

let secret: Buffer | undefined;
let secretHome: string | undefined;

/** Set by lore serve: a secret its replicas share, and the binding as every replica sees it (each keeps its clone in a folder of its own). */
let shared: { secret: Buffer; bind: (b: Bound) => Bound } | undefined;

/** Seals and opens tokens with `secret` (not this home's), over `bind` of what a token is bound to. */
export function sealWith(secret: Buffer, bind: (b: Bound) => Bound): void {
  shared = { secret, bind };
}

/** 32 random bytes kept in the lore home (0600), made on first use. */
function homeSecret(): Buffer {
  const home = loreHome();
  if (secret && secretHome === home) return secret;
  const path = join(home, "continue.key");
  try {
    secret = readFileSync(path);
    if (secret.length < 32) throw new Error("short");
  } catch {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const fresh = randomBytes(32);
    // Two processes may make one at once: the first file written wins, and both read it back.
    try {
      writeFileSync(path, fresh, { mode: 0o600, flag: "wx" });
    } catch {
      /* another process wrote it */
    }
    chmodSync(path, 0o600);
    secret = readFileSync(path);
  }
  secretHome = home;
  return secret;
}

/** Sorted keys: the same arguments seal the same, however an agent ordered them. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === "object") return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]));
  return v;
}

function mac(bound: Bound, body: string): string {
  const b = shared ? shared.bind(bound) : bound;
  const h = createHmac("sha256", shared?.secret ?? homeSecret()).update(JSON.stringify([b.root, b.name, canonical(b.input), b.head, b.disk ?? "", b.state, body])).digest();
  return String(h.readUIntBE(0, 6) % 10 ** MAC_DIGITS).padStart(MAC_DIGITS, "0");
}

/** Each offset as its digit count then its digits (0: the list is done). */
function encode(offsets: Offsets): string {
  return offsets.map((o) => (o === null ? "0" : `${String(o).length}${o}`)).join("");
}

export function mintToken(b: Bound, offsets: Offsets): string {
  const body = encode(offsets);
  return body + mac(b, body);
}

const refused = (why: string) =>
  new LoreError("BAD_CONTINUE", `This continue token ${why}; ask again with the same arguments and no continue for the first part, then continue with the token that answer gives.`);

/** The offsets a token carries for this question as asked now; BAD_CONTINUE when it was not made for it. */
export function openToken(token: unknown, b: Bound, lists: number): Offsets {
  const t = typeof token === "number" ? String(token) : typeof token === "string" ? token.trim() : "";
  if (!/^\d+$/.test(t) || t.length <= MAC_DIGITS) throw refused(`is not one lore gave (a continue token is the digits an answer's continue holds, such as 220123456789)`);
  const body = t.slice(0, -MAC_DIGITS);
  const offsets: Offsets = [];
  let i = 0;
  while (i < body.length && offsets.length < lists) {
    const n = Number(body[i]);
    offsets.push(n === 0 ? null : Number(body.slice(i + 1, i + 1 + n)));
    i += 1 + n;
  }
  // (The seal is compared in constant time: how long a refusal takes says nothing of the right digits.)
  const sealed = timingSafeEqual(Buffer.from(mac(b, body)), Buffer.from(t.slice(-MAC_DIGITS)));
  if (i !== body.length || offsets.length !== lists || offsets.some((o) => o !== null && !Number.isSafeInteger(o)) || !sealed)
    throw refused("is not from this answer: another question or other arguments, another repository, a HEAD or files that moved since, or a token changed or cut short");
  return offsets;
}

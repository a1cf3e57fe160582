/**
 * lore serve's bearer tokens: a file of names and SHA-256 hashes (never a token itself), read again
 * when it changes, so `lore serve token add` takes effect without a restart. A token is 32 random
 * bytes: a plain hash is as strong as a slow one against guessing it.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { LoreError } from "../errors.ts";

export interface TokenEntry {
  name: string;
  hash: Buffer;
  created: string;
}

const hashOf = (token: string) => createHash("sha256").update(token).digest();

function parse(text: string): TokenEntry[] {
  return text.split("\n").flatMap((line) => {
    const m = /^(\S+) sha256:([0-9a-f]{64}) (\S+)$/.exec(line.trim());
    return m ? [{ name: m[1]!, hash: Buffer.from(m[2]!, "hex"), created: m[3]! }] : [];
  });
}

export class TokenFile {
  private entries: TokenEntry[] = [];
  private stamp = "";

  constructor(readonly path: string) {}

  /** The tokens as the file says now (none when it does not exist). */
  list(): TokenEntry[] {
    const st = statSync(this.path, { throwIfNoEntry: false });
    const stamp = st ? `${st.ino}:${st.size}:${st.mtimeMs}` : "-";
    if (stamp !== this.stamp) {
      this.entries = st ? parse(readFileSync(this.path, "utf8")) : [];
      this.stamp = stamp;
    }
    return this.entries;
  }

  /** The name of the token presented, or undefined; every stored hash is compared, each in constant time. */
  verify(presented: string): string | undefined {
    const given = hashOf(presented);
    let found: string | undefined;
    for (const e of this.list()) if (timingSafeEqual(e.hash, given) && found === undefined) found = e.name;
    return found;
  }

  /** A new token for NAME: returned once, only its hash kept. */
  add(name: string): string {
    if (!/^[A-Za-z0-9._@-]{1,64}$/.test(name)) throw new LoreError("USAGE", `"${name}" cannot name a token (letters, digits, . _ @ -, up to 64).`);
    const entries = this.list();
    if (entries.some((e) => e.name === name)) throw new LoreError("USAGE", `A token named "${name}" exists; remove it first (lore serve token remove ${name}) to replace it.`);
    const token = `lore_${randomBytes(32).toString("base64url")}`;
    this.write([...entries, { name, hash: hashOf(token), created: new Date().toISOString().replace(/\.\d+Z$/, "Z") }]);
    return token;
  }

  remove(name: string): void {
    const entries = this.list();
    if (!entries.some((e) => e.name === name)) throw new LoreError("USAGE", `There is no token named "${name}"; lore serve token list shows them.`);
    this.write(entries.filter((e) => e.name !== name));
  }

  private write(entries: TokenEntry[]): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, entries.map((e) => `${e.name} sha256:${e.hash.toString("hex")} ${e.created}\n`).join(""), { mode: 0o600 });
    chmodSync(temp, 0o600);
    // A server reading the file meanwhile sees the old list or the new one, never half of one.
    renameSync(temp, this.path);
    this.stamp = "";
  }
}

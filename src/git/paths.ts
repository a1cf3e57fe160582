/** Bytes of a path as git prints them, to a string and back, losing nothing. */

const utf8 = new TextDecoder("utf-8", { fatal: true });
const ESCAPE_BASE = 0x10fc00;

/**
 * Decodes a path. Valid UTF-8 decodes as usual; each byte of an invalid sequence becomes
 * the private-use character U+10FC00+byte, so the name survives a round trip through
 * JSON and SQLite (a lone surrogate, Python's choice, would not) and back to git.
 */
export function decodePath(bytes: Uint8Array): string {
  let ascii = true;
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) { ascii = false; break; }
  if (ascii) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  try {
    return utf8.decode(bytes);
  } catch {
    let out = "";
    let i = 0;
    while (i < bytes.length) {
      const len = validSequenceLength(bytes, i);
      if (len > 0) {
        out += utf8.decode(bytes.subarray(i, i + len));
        i += len;
      } else {
        out += String.fromCodePoint(ESCAPE_BASE + bytes[i]!);
        i++;
      }
    }
    return out;
  }
}

/**
 * Decodes text that was read as latin1 (one char per byte) as the bytes it stands for:
 * pure ASCII stays as is, anything else goes through decodePath.
 */
export function fromLatin1(s: string): string {
  // eslint-disable-next-line no-control-regex
  return /[^\x00-\x7f]/.test(s) ? decodePath(Buffer.from(s, "latin1")) : s;
}

/** The bytes a decoded path stands for: the inverse of decodePath. */
export function encodePath(path: string): Buffer {
  if (!hasEscapedBytes(path)) return Buffer.from(path, "utf8");
  const out: number[] = [];
  for (const ch of path) {
    const code = ch.codePointAt(0)!;
    if (code >= ESCAPE_BASE + 0x80 && code <= ESCAPE_BASE + 0xff) out.push(code - ESCAPE_BASE);
    else out.push(...Buffer.from(ch, "utf8"));
  }
  return Buffer.from(out);
}

/** True when a path holds bytes that are not UTF-8 (escaped by decodePath). */
export function hasEscapedBytes(path: string): boolean {
  return /[\u{10fc80}-\u{10fcff}]/u.test(path);
}

function validSequenceLength(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const need = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
  if (need === 0 || i + need > b.length) return 0;
  for (let k = 1; k < need; k++) if ((b[i + k]! & 0xc0) !== 0x80) return 0;
  try {
    utf8.decode(b.subarray(i, i + need));
    return need;
  } catch {
    return 0;
  }
}

/** Undoes git's C-style quoting of a name as printed ("a\\tb"); an unquoted name is decoded as is. */
export function unquoteCPath(raw: Uint8Array): string {
  if (!(raw.length >= 2 && raw[0] === 0x22 && raw[raw.length - 1] === 0x22)) return decodePath(raw);
  const out: number[] = [];
  const simple: Record<number, number> = { 0x61: 7, 0x62: 8, 0x74: 9, 0x6e: 10, 0x76: 11, 0x66: 12, 0x72: 13, 0x22: 0x22, 0x5c: 0x5c };
  for (let i = 1; i < raw.length - 1; i++) {
    const c = raw[i]!;
    if (c !== 0x5c) {
      out.push(c);
      continue;
    }
    const n = raw[++i]!;
    if (n in simple) out.push(simple[n]!);
    else if (n >= 0x30 && n <= 0x37) {
      out.push(((n - 0x30) << 6) | ((raw[i + 1]! - 0x30) << 3) | (raw[i + 2]! - 0x30));
      i += 2;
    } else out.push(0x5c, n);
  }
  return decodePath(Uint8Array.from(out));
}

/** The address `lore serve` listens on: HOST:PORT parsed, and whether it is loopback (this machine only). */
import { LoreError } from "../errors.ts";

export interface Listen {
  host: string;
  port: number;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** `127.0.0.1:7077`, `[::1]:7077`, `0.0.0.0:80`, `:7077` (loopback); port 0 lets the system pick. */
export function parseListen(text: string): Listen {
  const m = /^(\[[^\]]+\]|[^:[\]]*):(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw new LoreError("USAGE", `--listen takes HOST:PORT (127.0.0.1:7077, [::1]:7077, 0.0.0.0:7077), not "${text}".`);
  const host = m[1] === "" ? "127.0.0.1" : m[1]!.replace(/^\[(.*)\]$/, "$1");
  return { host, port };
}

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** A host that means every interface: any name may reach it. */
export function isWildcard(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "";
}

/** The names a Host or Origin header may carry for this listener (null: any, for a wildcard listener without --allow-host). */
export function allowedHosts(listen: Listen, extra: readonly string[]): Set<string> | null {
  if (isWildcard(listen.host) && extra.length === 0) return null;
  const names = new Set(extra.map((h) => h.toLowerCase().replace(/^\[(.*)\]$/, "$1")));
  if (isLoopback(listen.host)) for (const h of ["127.0.0.1", "localhost", "::1"]) names.add(h);
  if (!isWildcard(listen.host)) names.add(listen.host.toLowerCase());
  return names;
}

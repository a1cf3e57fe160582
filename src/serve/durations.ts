/** Durations of lore serve's flags and config: 30s, 5m, 1h, or plain seconds. */
import { LoreError } from "../errors.ts";

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(flag: string, value: unknown): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(String(value));
  const ms = m ? Number(m[1]) * UNIT_MS[m[2] ?? "s"]! : NaN;
  if (!Number.isFinite(ms) || ms <= 0) throw new LoreError("USAGE", `--${flag} takes a time such as 30s, 5m or 1h, not "${String(value)}".`);
  return Math.round(ms);
}

/**
 * The dates lore reads (--since, --before, changes --since): a calendar date, "N units ago", a
 * duration (3d) or yesterday, and nothing else. git's approxidate reads anything (garbage is "now",
 * "yesterdayish" is yesterday), so lore checks the form itself and hands git only what it documents.
 */
import { LoreError } from "../errors.ts";

/** One example of each form, for messages and the docs. */
export const DATE_FORMS = ["2024-01-31", "2024-01-31 14:30", "@1700000000", "3 days ago", "2 weeks ago", "6 months ago", "1 year ago", "90m", "12h", "3d", "2w", "yesterday"];

const SHORT_UNITS: Record<string, string> = { s: "second", m: "minute", h: "hour", d: "day", w: "week" };
const LONG_UNITS = /^(\d+)[\s.]*(second|sec|minute|min|hour|day|week|month|year)s?(?:[\s.]+ago)?$/i;
const FULL_UNIT: Record<string, string> = { sec: "second", min: "minute" };
const CALENDAR = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\s*(Z|[+-]\d{2}:?\d{2}))?)?$/i;

/** "3 days ago" in the words git reads. */
const ago = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"} ago`;

/** The date as git should read it, or undefined when it is none of the forms lore takes. */
export function readDate(text: string): string | undefined {
  const t = text.trim();
  const short = /^(\d+)\s*([smhdw])(?:\s+ago)?$/i.exec(t);
  if (short) return ago(Number(short[1]), SHORT_UNITS[short[2]!.toLowerCase()]!);
  const long = LONG_UNITS.exec(t);
  if (long) {
    const unit = long[2]!.toLowerCase();
    return ago(Number(long[1]), FULL_UNIT[unit] ?? unit);
  }
  if (/^(yesterday|now)$/i.test(t)) return t.toLowerCase();
  // git's own Unix time form, seconds since 1970.
  if (/^@\d{1,12}$/.test(t)) return t;
  const c = CALENDAR.exec(t);
  if (!c) return undefined;
  const [y, mo, d, h = "0", mi = "0", s = "0"] = c.slice(1, 7).map((v) => v ?? undefined) as string[];
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  // 2024-02-30 is no day; git would roll it into March.
  if (day.getUTCFullYear() !== Number(y) || day.getUTCMonth() !== Number(mo) - 1 || day.getUTCDate() !== Number(d)) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  return t;
}

/** The sentence for a date lore cannot read; `flag` is the command line's word for the argument (--since). */
export function badDate(flag: string, text: string, snapshots = false): LoreError {
  const forms = `a date (2024-01-31, 2024-01-31 14:30, @1700000000), a time ago (3 days ago, 2 weeks ago, 6 months ago), a duration (90m, 12h, 3d, 2w) or yesterday`;
  return new LoreError("BAD_ARGUMENT", `${flag} takes ${snapshots ? "a snapshot id, " : ""}${forms}; not ${JSON.stringify(text)}.`);
}

/** The date as git should read it; BAD_ARGUMENT, with the forms lore takes, for anything else. */
export function checkDate(flag: string, text: string): string {
  const read = readDate(text);
  if (read === undefined) throw badDate(flag, text);
  return read;
}

/** A date lore reads, as a moment (for lore's own snapshots, which git does not date): months and years by the calendar. */
export function dateTime(read: string, now: Date): Date {
  const m = /^(\d+) (second|minute|hour|day|week|month|year)s? ago$/.exec(read);
  if (m) {
    const n = Number(m[1]);
    const ms: Record<string, number> = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 };
    if (m[2]! in ms) return new Date(now.getTime() - n * ms[m[2]!]!);
    const d = new Date(now);
    if (m[2] === "month") d.setUTCMonth(d.getUTCMonth() - n);
    else d.setUTCFullYear(d.getUTCFullYear() - n);
    return d;
  }
  if (read === "yesterday") return new Date(now.getTime() - 86_400_000);
  if (read === "now") return now;
  // A calendar date without a zone is the machine's local time, as git reads it.
  const iso = read.replace(/^(\d{4}-\d{2}-\d{2})$/, "$1 00:00").replace(/\s*([+-]\d{2}):?(\d{2})$/, "$1:$2").replace(" ", "T");
  return new Date(iso.toUpperCase());
}

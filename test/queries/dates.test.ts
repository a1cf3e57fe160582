/**
 * Dates: every argument that takes a date reads the forms lore documents (a calendar date, "3 days
 * ago", 3d, yesterday) as git does, and refuses anything else with BAD_ARGUMENT and the forms it
 * takes — git's approxidate would read "yesterdayish" as yesterday, and garbage as now.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { QUERIES } from "../../src/queries/index.ts";
import { DATE_FORMS, readDate } from "../../src/queries/date-text.ts";
import { runGit, TestRepo, lines } from "../helpers/git-repo.ts";
import { ask, cli, isolateHome } from "../helpers/lore.ts";

const DAY = 86_400;
const now = Math.floor(Date.now() / 1000);
let repo: TestRepo;

beforeAll(() => {
  isolateHome();
  repo = new TestRepo();
  // Commits 40, 10 and 2 days and 2 hours old: each relative form keeps a different number of them.
  for (const [i, age] of [40 * DAY, 10 * DAY, 2 * DAY, 2 * 3600].entries()) {
    repo.write("a.txt", lines(...Array.from({ length: i + 2 }, (_, k) => `line ${k}`)));
    runGit(repo.dir, ["add", "-A"]);
    const date = `${now - age} +0000`;
    runGit(repo.dir, ["commit", "-q", "-m", `Commit ${i}`], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
  }
});
afterAll(() => repo.cleanup());

/** The arguments of one question for which a date argument is asked about. */
const BASE: Record<string, string[]> = { log: [], search: ["Commit"], hotspots: [], cochange: ["a.txt"], changes: [] };

const GARBAGE = ["yesterdayish", "tomorrow", "3 dayz ago", "2024-13-45", "last tuesdayx", "soon", "ago", "12 parsecs ago"];

describe("every date argument", () => {
  const dated = QUERIES.flatMap((q) => Object.entries(q.args).filter(([, s]) => s.date).map(([name]) => [q, name] as const));

  test("is declared as one: every argument that speaks of a date or a time says so", () => {
    for (const q of QUERIES) for (const [name, spec] of Object.entries(q.args)) if (/\bdate\b|yesterday|10m/i.test(spec.description) || name === "since" || name === "before") expect({ q: q.name, name, date: spec.date !== undefined }).toEqual({ q: q.name, name, date: true });
    expect(dated.map(([q, n]) => `${q.name} ${n}`).sort()).toEqual(["changes since", "cochange since", "hotspots since", "log before", "log since", "search since"]);
  });

  test("refuses what lore cannot read with BAD_ARGUMENT and the forms it takes, on the command line", () => {
    // Each argument once, and each garbage once, through a process of its own (every pair is asked in-process below).
    for (let i = 0; i < Math.max(dated.length, GARBAGE.length); i++) {
      const [q, name] = dated[i % dated.length]!;
      const bad = GARBAGE[i % GARBAGE.length]!;
      const flag = `--${name}`;
      const r = cli(repo.dir, [q.name, ...BASE[q.name]!, flag, bad, "--json"]);
      expect({ q: q.name, bad, code: r.json?.error?.code }).toEqual({ q: q.name, bad, code: "BAD_ARGUMENT" });
      expect(r.json.error.message).toContain(flag);
      expect(r.json.error.message).toContain("3 days ago");
    }
  });

  test("refuses every one of them in the daemon's and MCP's input too, before any repository is read", async () => {
    for (const [q, name] of dated) {
      for (const bad of GARBAGE) {
        const input = { ...(BASE[q.name]!.length ? (q.name === "search" ? { query: "x" } : { paths: ["a.txt"] }) : {}), [name]: bad };
        await expect(ask(q.name, "/nonexistent", input)).rejects.toMatchObject({ code: "BAD_ARGUMENT" });
      }
    }
  });
});

describe("the forms lore takes", () => {
  const shas = (args: string[]) => runGit(repo.dir, ["log", "--format=%h", ...args]).split("\n").filter(Boolean);
  const day = (ago: number) => new Date((now - ago) * 1000).toISOString().slice(0, 10);

  test("each keeps the commits git log keeps for the same date", async () => {
    const forms: [string, string][] = [
      ["3 days ago", "3 days ago"],
      ["1 week ago", "1 week ago"],
      ["3 weeks ago", "3 weeks ago"],
      ["2 months ago", "2 months ago"],
      ["1 year ago", "1 year ago"],
      ["3 days", "3 days ago"],
      ["3d", "3 days ago"],
      ["12h", "12 hours ago"],
      ["90m", "90 minutes ago"],
      ["2w", "2 weeks ago"],
      ["yesterday", "yesterday"],
      [day(5 * DAY), day(5 * DAY)],
      [`${day(5 * DAY)} 12:00`, `${day(5 * DAY)} 12:00`],
      [`${day(5 * DAY)}T12:00:00Z`, `${day(5 * DAY)}T12:00:00Z`],
    ];
    for (const [form, git] of forms) {
      const got = (await ask("log", repo.dir, { since: form, limit: 100 })).commits.map((c: { sha: string }) => c.sha.slice(0, 7));
      expect({ form, got }).toEqual({ form, got: shas([`--since=${git}`]).map((s) => s.slice(0, 7)) });
      const before = (await ask("log", repo.dir, { before: form, limit: 100 })).commits.map((c: { sha: string }) => c.sha.slice(0, 7));
      expect({ form, before }).toEqual({ form, before: shas([`--until=${git}`]).map((s) => s.slice(0, 7)) });
    }
  });

  test("the grammar reads each documented form and nothing else", () => {
    for (const form of DATE_FORMS) expect({ form, read: readDate(form) !== undefined }).toEqual({ form, read: true });
    for (const bad of GARBAGE) expect({ bad, read: readDate(bad) }).toEqual({ bad, read: undefined });
  });

  test("hotspots --since a date it cannot read no longer answers about 0 commits", () => {
    const r = cli(repo.dir, ["hotspots", "--since", "yesterdayish"]);
    // A bad argument is a usage error: exit 2, as for a bad flag.
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("[BAD_ARGUMENT]");
  });
});

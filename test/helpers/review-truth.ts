/** What git says a change rewrites: the old side's deleted lines (git diff -U0) and who git blame says wrote them. */
import { runGit, runGitBytes } from "./git-repo.ts";
import { short } from "./git-truth.ts";

export interface DeletedLine {
  path: string;
  oldPath: string;
  line: number;
  sha: string;
  author: string;
  email: string;
  time: number;
}

/** Each line's commit, author, email and author time from `git blame --line-porcelain REV -- PATH`. */
function blameLines(dir: string, rev: string, path: string, extra: string[]): { sha: string; author: string; email: string; time: number }[] {
  const out = runGitBytes(dir, ["-c", "core.quotepath=off", "blame", "--line-porcelain", ...extra, rev, "--", path]).toString("utf8");
  const owners: { sha: string; author: string; email: string; time: number }[] = [];
  let cur: any = {};
  for (const line of out.split("\n")) {
    if (line.startsWith("\t")) {
      owners.push(cur);
      cur = {};
    } else if (/^[0-9a-f]{40} \d+ \d+/.test(line)) cur.sha = short(line.slice(0, 40));
    else if (line.startsWith("author ")) cur.author = line.slice(7);
    else if (line.startsWith("author-mail ")) cur.email = line.slice(12).replace(/^<|>$/g, "");
    else if (line.startsWith("author-time ")) cur.time = Number(line.slice(12));
  }
  return owners;
}

/**
 * The lines `git diff -U0 DIFFARGS` deletes or replaces, in the old side's numbers, each with the
 * blame of `oldRev` (binary files have none). `diffArgs` is what follows `git diff` (HEAD, --cached HEAD, A B).
 */
export function deletedLines(dir: string, oldRev: string, diffArgs: string[], paths: string[] = [], blameExtra: string[] = []): DeletedLine[] {
  const status = runGit(dir, ["-c", "core.quotepath=off", "diff", "--name-status", "-M", "-z", ...diffArgs, "--", ...paths]).split("\0");
  const out: DeletedLine[] = [];
  for (let i = 0; i < status.length - 1; ) {
    const st = status[i]!;
    const renamed = st[0] === "R" || st[0] === "C";
    const oldPath = status[i + 1]!;
    const path = renamed ? status[i + 2]! : oldPath;
    i += renamed ? 3 : 2;
    if (st[0] === "A") continue;
    const patch = runGit(dir, ["-c", "core.quotepath=off", "diff", "-U0", "-M", "--no-color", ...diffArgs, "--", ...(renamed ? [oldPath, path] : [path])]);
    if (/^Binary files /m.test(patch)) continue;
    const owners = blameLines(dir, oldRev, oldPath, blameExtra);
    for (const m of patch.matchAll(/^@@ -(\d+)(?:,(\d+))? /gm)) {
      const start = Number(m[1]);
      const count = m[2] === undefined ? 1 : Number(m[2]);
      for (let l = start; l < start + count; l++) out.push({ path, oldPath, line: l, ...owners[l - 1]! });
    }
  }
  return out;
}

/** lore's rewrites of each file as "path:line" → sha, for comparing with deletedLines. */
export function rewriteLines(files: { path: string; rewrites?: Record<string, [number, number][]> }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of files) for (const [sha, ranges] of Object.entries(f.rewrites ?? {})) for (const [a, b] of ranges) for (let l = a; l <= b; l++) out[`${f.path}:${l}`] = sha;
  return out;
}

export function truthLines(lines: DeletedLine[]): Record<string, string> {
  return Object.fromEntries(lines.map((d) => [`${d.path}:${d.line}`, d.sha]));
}

/**
 * Each email's person as git log says it (identity.ts's rule, no mailmap in these repositories):
 * the name and email of its newest commit in HEAD's history, the same email in any case being one
 * person; placeholder emails join no one.
 */
export function gitIdentities(dir: string): (author: string, email: string) => string {
  const newest = new Map<string, { key: string; time: number; variants: Set<string> }>();
  for (const line of runGit(dir, ["log", "--format=%aN%x00%aE%x00%at", "HEAD"]).split("\n")) {
    if (!line) continue;
    const [author, email, t] = line.split("\0") as [string, string, string];
    const key = `${author}\0${email}`;
    const k = email.toLowerCase();
    const n = newest.get(k) ?? { key, time: -1, variants: new Set<string>() };
    n.variants.add(key);
    if (Number(t) > n.time || (Number(t) === n.time && key < n.key)) Object.assign(n, { key, time: Number(t) });
    newest.set(k, n);
  }
  return (author, email) => {
    const n = newest.get(email.toLowerCase());
    const placeholder = !/^[^@]+@[^@]+\.[^@]+$/.test(email) || /^(root|noreply|no-reply)@/i.test(email) || /@localhost/i.test(email);
    return n && n.variants.size > 1 && !placeholder ? n.key : `${author}\0${email}`;
  };
}

/** The people git blame names for the deleted lines: one row a person (gitIdentities), the user left out by email, by lines, up to 3. */
export function truthPeople(lines: DeletedLine[], userEmail: string | undefined, identity: (author: string, email: string) => string = (a, e) => `${a}\0${e}`): { author: string; email: string; lines: number }[] {
  const me = userEmail?.toLowerCase();
  const by = new Map<string, number>();
  for (const d of lines) {
    if (d.email.toLowerCase() === me) continue;
    const who = identity(d.author, d.email);
    by.set(who, (by.get(who) ?? 0) + 1);
  }
  return [...by]
    .map(([who, n]) => ({ author: who.split("\0")[0]!, email: who.split("\0")[1]!, lines: n }))
    .filter((p) => p.email.toLowerCase() !== me)
    .sort((x, y) => y.lines - x.lines || (x.author < y.author ? -1 : x.author > y.author ? 1 : 0))
    .slice(0, 3);
}

/** Each commit's whole message as git log prints it (%B, trailing newlines dropped). */
export function gitMessage(dir: string, sha: string): string {
  return runGit(dir, ["log", "-1", "--format=%B", sha]).replace(/\n+$/, "");
}

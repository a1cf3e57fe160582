/** What git says for searches: `git log --grep` with whole words, `git log -S/-G` with the files it keeps. */
import { runGit } from "./git-repo.ts";

/** Accents off and lower case, as the index's tokenizer (unicode61, remove_diacritics 2) compares words. */
export function fold(s: string): string {
  return s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** True when `word` occurs in `text` as a whole word (letters, digits and _ around it do not count). */
export function hasWord(text: string, word: string): boolean {
  const esc = fold(word).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\p{L}\\p{N}_])${esc}(?![\\p{L}\\p{N}_])`, "u").test(fold(text));
}

/** Commit messages by full sha, of every commit reachable from `rev`. */
export function messages(dir: string, rev = "HEAD"): Map<string, string> {
  const out = new Map<string, string>();
  for (const rec of runGit(dir, ["log", "--format=%x1e%H%x00%B", rev]).split("\x1e").slice(1)) {
    const [sha, body] = rec.split("\0") as [string, string];
    out.set(sha, body);
  }
  return out;
}

/**
 * The commits `git log -i --all-match --grep=w…` lists in which every word is a whole word; `msgs`
 * is messages(dir), passed by a caller that asks many times so that it is read once.
 */
export function grepWholeWords(dir: string, words: string[], extra: string[] = [], msgs = messages(dir)): string[] {
  const shas = runGit(dir, ["log", "-i", "--all-match", ...words.map((w) => `--grep=${w}`), "--format=%H", ...extra]).split("\n").filter(Boolean);
  return shas.filter((s) => words.every((w) => hasWord(msgs.get(s) ?? "", w)));
}

/**
 * `git log -S TEXT` (or -G): each commit, in order, with the files git keeps for it; with `max`, the
 * newest `max` only (git stops its walk there: `-n` before `--reverse` would keep the newest, so not oldest first).
 */
export function pickaxeTruth(dir: string, text: string, opts: { regex?: boolean; reverse?: boolean; paths?: string[]; max?: number } = {}): { sha: string; files: string[] }[] {
  if (opts.max !== undefined && opts.reverse) throw new Error("pickaxeTruth: max lists the newest commits, not the oldest");
  const args = ["log", opts.regex ? `-G${text}` : `-S${text}`, "--format=%x1e%H", "--name-only", "-z", ...(opts.reverse ? ["--reverse"] : []), ...(opts.max !== undefined ? ["-n", String(opts.max)] : []), "HEAD", "--", ...(opts.paths ?? [])];
  return runGit(dir, args)
    .split("\x1e")
    .slice(1)
    .map((rec) => {
      const end = rec.indexOf("\0");
      return { sha: rec.slice(0, end), files: rec.slice(end + 1).replace(/^\n/, "").split("\0").filter(Boolean) };
    });
}

/**
 * Who is one person, from git alone: `git log` (every commit's author as git prints it, mailmap
 * applied) grouped by email in any case, named by `git check-mailmap "<email>"` when it names the
 * email, else by the newest commit's name. Emails that name no one (see lore's sharedEmail) are
 * left as they are.
 */
import { sharedEmail } from "../../src/queries/run/identity.ts";
import { runGit } from "./git-repo.ts";

/** "name <email>" of the person each "name <email>" of `git log` is. */
export function gitPeople(dir: string, rev = "HEAD"): (author: string, email: string) => string {
  const newest = new Map<string, { author: string; email: string; time: number }>();
  const names = new Map<string, Set<string>>();
  for (const line of runGit(dir, ["log", "--format=%aN%x00%aE%x00%at", rev]).split("\n")) {
    if (!line) continue;
    const [author, email, at] = line.split("\0") as [string, string, string];
    if (sharedEmail(email)) continue;
    const k = email.toLowerCase();
    const time = Number(at);
    const n = newest.get(k);
    const key = `${author}\0${email}`;
    if (!n || time > n.time || (time === n.time && key < `${n.author}\0${n.email}`)) newest.set(k, { author, email, time });
    names.set(k, (names.get(k) ?? new Set()).add(key));
  }
  const person = new Map<string, string>();
  for (const [k, n] of newest) {
    if (names.get(k)!.size < 2) continue;
    const mapped = /^(.+?)\s*<[^<>]*>$/.exec(runGit(dir, ["check-mailmap", `<${n.email}>`]).trim())?.[1];
    person.set(k, `${mapped ?? n.author} <${n.email}>`);
  }
  return (author, email) => (sharedEmail(email) ? undefined : person.get(email.toLowerCase())) ?? `${author} <${email}>`;
}

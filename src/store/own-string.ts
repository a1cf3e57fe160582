/** Strings kept in long-lived memos are copied first: a slice of git's output would keep all of that output alive. */

/** A copy of `s` that shares nothing with the text it was cut from (JavaScriptCore keeps the whole base string of a slice). */
export function ownString(s: string): string {
  return Buffer.from(s, "utf8").toString("utf8");
}

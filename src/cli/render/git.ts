/** Human rendering of the git escape hatch: git's own output, then what it said on stderr. */
import type { GitOutput } from "../../queries/git.ts";
import type { Style } from "../style.ts";

export function renderGit(r: GitOutput & { after?: number; continue?: string }, s: Style): string {
  // A continued page: the output's next part alone.
  if (r.after !== undefined) return r.stdout.replace(/\n$/, "");
  const parts = [r.stdout.replace(/\n$/, "")];
  if (r.stderr.trim() !== "") parts.push(s.dim(r.stderr.replace(/\n$/, "")));
  if (r.truncated && !r.continue) parts.push(s.dim("… output cut at 64 KB: narrow the command (a path, -n N, a revision range)."));
  return parts.filter((p) => p !== "").join("\n");
}

/** Human rendering of the git escape hatch: git's own output, then what it said on stderr. */
import type { GitOutput } from "../../queries/git.ts";
import type { Style } from "../style.ts";

export function renderGit(r: GitOutput, s: Style): string {
  const parts = [r.stdout.replace(/\n$/, "")];
  if (r.stderr.trim() !== "") parts.push(s.dim(r.stderr.replace(/\n$/, "")));
  if (r.truncated) parts.push(s.dim("… output cut at 64 KB: narrow the command (a path, -n N, a revision range)."));
  return parts.filter((p) => p !== "").join("\n");
}

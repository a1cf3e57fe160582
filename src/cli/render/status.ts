/** Human rendering of status. */
import type { StatusOutput } from "../../queries/status.ts";
import type { Style } from "../style.ts";
import { shortSha, table } from "../table.ts";

/** Files and how far the background blame has got: done once every file that can be blamed is. */
function files(r: StatusOutput, s: Style): string {
  const cannot = r.filesUnblamable > 0 ? s.dim(`; ${r.filesUnblamable} binary or symlinks, never blamed`) : "";
  if (r.filesBlamed + r.filesUnblamable >= r.filesTotal) return `${r.filesTotal} (${r.filesUnblamable > 0 ? `${r.filesBlamed} ` : "all "}blamed${cannot})`;
  return `${r.filesTotal} (${r.filesBlamed} blamed so far${cannot})`;
}

export function renderStatus(r: StatusOutput, s: Style): string {
  const state = r.state === "fresh" ? s.green(r.state) : r.state === "indexing" ? s.yellow(r.state) : s.red(r.state);
  const rows = [
    ["repository", r.repo],
    ["head", r.head ? `${shortSha(r.head)}${r.branch ? ` (${r.branch})` : " (detached)"}` : r.branch ? `none: ${r.branch} is an unborn branch (no commits yet)` : "none (no commits)"],
    ["index", `${state}${r.indexedHead && r.indexedHead !== r.head ? s.dim(` at ${shortSha(r.indexedHead)}`) : ""}`],
    ["commits", `${r.commitsIndexed}${r.churnComplete ? "" : s.dim(" (line counts still indexing)")}${r.maxCommits ? s.dim(` (capped at ${r.maxCommits})`) : ""}`],
    ["files", files(r, s)],
    ...(r.shallow ? [["shallow", s.yellow("yes: history stops at the clone's depth")]] : []),
    ...(r.rebuilt ? [["rebuilt", r.rebuilt]] : []),
    ...(r.partialClone ? [["partial clone", s.yellow("yes: lore reads only the objects that are here")]] : []),
    ...(r.leftOut ?? []).map((l) => ["left out", s.yellow(l)]),
    ...(r.walksGit ?? []).map((l) => ["walks git", s.dim(l)]),
    ["last indexed", r.lastIndexedAt ?? "never"],
    ["index file", `${r.dbPath} (${(r.dbBytes / 1024 / 1024).toFixed(1)} MB)`],
    ...(r.snapshots ? [["snapshots", `${r.snapshots.count}${r.snapshots.newest ? `, newest ${r.snapshots.newest}` : ""} (${(r.snapshots.bytes / 1024).toFixed(0)} KB; kept ${r.snapshots.keepHours} h, at most ${r.snapshots.keepCount})`]] : []),
    ["daemon", r.daemon ? `pid ${r.daemon.pid}, ${r.daemon.version}, up ${Math.round(r.daemon.uptimeS)} s` : "not used"],
  ];
  return table(rows.map(([k, v]) => [s.dim(k!), v!])).join("\n");
}

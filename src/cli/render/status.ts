/** Human rendering of status. */
import type { StatusOutput } from "../../queries/status.ts";
import type { Style } from "../style.ts";
import { shortSha, table } from "../table.ts";

export function renderStatus(r: StatusOutput, s: Style): string {
  const state = r.state === "fresh" ? s.green(r.state) : r.state === "indexing" ? s.yellow(r.state) : s.red(r.state);
  const rows = [
    ["repository", r.repo],
    ["head", r.head ? `${shortSha(r.head)}${r.branch ? ` (${r.branch})` : " (detached)"}` : "none (no commits)"],
    ["index", `${state}${r.indexedHead && r.indexedHead !== r.head ? s.dim(` at ${shortSha(r.indexedHead)}`) : ""}`],
    ["commits", `${r.commitsIndexed}${r.churnComplete ? "" : s.dim(" (line counts still indexing)")}${r.truncated ? s.dim(` (capped at ${r.truncated})`) : ""}`],
    ["files", `${r.filesTotal} (${r.filesBlamed} blamed)`],
    ...(r.shallow ? [["shallow", s.yellow("yes: history stops at the clone's depth")]] : []),
    ...(r.rebuilt ? [["rebuilt", r.rebuilt]] : []),
    ...(r.partialClone ? [["partial clone", s.yellow("yes: lore reads only the objects that are here")]] : []),
    ...r.leftOut.map((l) => ["left out", s.yellow(l)]),
    ["last indexed", r.lastIndexedAt ?? "never"],
    ["index file", `${r.dbPath} (${(r.dbBytes / 1024 / 1024).toFixed(1)} MB)`],
    ["daemon", r.daemon ? `pid ${r.daemon.pid}, ${r.daemon.version}, up ${Math.round(r.daemon.uptimeS)} s` : "not used"],
  ];
  return table(rows.map(([k, v]) => [s.dim(k!), v!])).join("\n");
}

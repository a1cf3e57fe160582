/** One renderer per question, by name; the text MCP sends to text-only clients comes from here too. */
import type { Style } from "../style.ts";
import { renderBlame } from "./blame.ts";
import { renderBranches } from "./branches.ts";
import { renderCochange } from "./cochange.ts";
import { renderContributors } from "./contributors.ts";
import { renderGit } from "./git.ts";
import { renderChanges, renderRestore, renderSnapshot, renderSnapshots } from "./memory.ts";
import { renderHistory } from "./history.ts";
import { renderHotspots } from "./hotspots.ts";
import { renderIntent } from "./intent.ts";
import { renderCompare } from "./compare.ts";
import { renderLog } from "./log.ts";
import { renderShow } from "./show.ts";
import { renderOwners } from "./owners.ts";
import { renderLineHistory } from "./line-history.ts";
import { renderReview } from "./review.ts";
import { renderSearch } from "./search.ts";
import { renderStatus } from "./status.ts";
import { renderSuspects } from "./suspects.ts";
import { bare, partialLines } from "./partial.ts";
import { historyStopsLine, type HistoryStops } from "../../queries/history-stops.ts";
import { wordsFor, type Words } from "./words.ts";

const RENDERERS: Record<string, (result: never, style: Style, words: Words) => string> = {
  blame: renderBlame,
  // history -L answers with a range and each commit's diff.
  history: (r: never, s: Style, w: Words) => ("range" in (r as object) ? renderLineHistory : renderHistory)(r, s, w),
  intent: renderIntent,
  cochange: renderCochange,
  hotspots: renderHotspots,
  contributors: renderContributors,
  log: renderLog,
  show: renderShow,
  compare: renderCompare,
  review: renderReview,
  owners: renderOwners,
  search: renderSearch,
  status: renderStatus,
  git: renderGit,
  snapshot: renderSnapshot,
  snapshots: renderSnapshots,
  changes: renderChanges,
  restore: renderRestore,
  branches: renderBranches,
  suspects: renderSuspects,
};

/** The answer as the face shows it: the command line's words (flags) or MCP's (its parameters). */
export function render(name: string, result: unknown, style: Style, face: "cli" | "mcp" = "cli"): string {
  const r = RENDERERS[name];
  const words = wordsFor(name, face);
  const stops = (result as { historyStops?: HistoryStops } | null)?.historyStops;
  // One line in every answer whose facts reach a shallow clone's boundary.
  const stopLine = stops ? [style.yellow(historyStopsLine(stops, name === "search" && (result as { mode?: string }).mode !== undefined))] : [];
  if (bare(result)) return [...stopLine, ...partialLines(name, result, style, words)].join("\n");
  const text = r ? r(result as never, style, words) : JSON.stringify(result, null, 2);
  // A renderer whose cut line named the token said how to go on; else the partial or continue line does.
  const token = (result as { continue?: unknown } | null)?.continue;
  const extra = [...stopLine, ...(typeof token === "string" && text.includes(token) ? [] : partialLines(name, result, style, words))];
  return extra.length ? `${text}\n${extra.join("\n")}` : text;
}

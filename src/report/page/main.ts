/// <reference lib="dom" />
/** The report page: reads the embedded data and draws the map, the panel beside it, the graph, ownership and activity. */
import { drawActivity } from "./activity.ts";
import { showDetails } from "./details.ts";
import { fmt, h, plural } from "./dom.ts";
import { drawFolders } from "./folders.ts";
import { drawGraph } from "./graph.ts";
import { describe, drawTreemap, legend, moveFocus } from "./treemap.ts";
import type { ReportData, ReportFile } from "./types.ts";

function main(): void {
  const data = JSON.parse(document.getElementById("lore-data")!.textContent!) as ReportData;
  const $ = (id: string) => document.getElementById(id)!;
  const windowText = data.window.since ? `the commits since ${data.window.since}` : `the newest ${plural(data.window.commits, "commit")}`;
  const name = data.repo.split("/").pop() || data.repo;
  document.title = `lore report: ${name}${data.path ? "/" + data.path : ""}`;
  $("title").textContent = `${name}${data.path ? "/" + data.path : ""}`;
  const lines = data.files.reduce((a, f) => a + f.lines, 0);
  $("summary").textContent = `at ${data.rev.slice(0, 12)} · ${plural(data.files.length, "file")} · ${plural(lines, "line")} · window: ${windowText}${data.mostChanged ? ` · the ${fmt(data.files.length)} most changed files shown, more left out` : data.filesLeftOut ? ` · the ${fmt(data.files.length)} largest files shown, ${fmt(data.filesLeftOut)} left out` : ""}${data.historyStops ? ` · history stops at ${Object.entries(data.historyStops.at).map(([sha, day]) => `${sha} (${day})`).join(", ")}${data.historyStops.more ? ` and ${data.historyStops.more} more` : ""}: a shallow clone (the rest: ${data.historyStops.get})` : ""}`;

  const tip = $("tip");
  const panel = $("panel");
  const byPath = new Map(data.files.map((f) => [f.path, f]));
  let selected: HTMLElement | undefined;
  let cells = new Map<string, HTMLElement>();
  const pick = (f: ReportFile, cell?: HTMLElement) => {
    selected?.classList.remove("selected");
    selected?.setAttribute("aria-pressed", "false");
    selected = cell ?? cells.get(f.path);
    selected?.classList.add("selected");
    // The selected cell is where Tab comes back into the map.
    const inTabOrder = map.querySelector<HTMLElement>('.cell[tabindex="0"]');
    if (selected && inTabOrder !== selected) {
      if (inTabOrder) inTabOrder.tabIndex = -1;
      selected.tabIndex = 0;
    }
    selected?.setAttribute("aria-pressed", "true");
    showDetails(panel, f, data.details[f.path], (p) => {
      const other = byPath.get(p);
      const cell = cells.get(p);
      if (other && cell) {
        pick(other, cell);
        moveFocus(map.querySelector<HTMLElement>('.cell[tabindex="0"]') ?? undefined, cell);
      }
    });
  };
  const show = (f: ReportFile | null, cell?: HTMLElement) => {
    if (!f || !cell) {
      tip.hidden = true;
      return;
    }
    tip.textContent = describe(f);
    tip.hidden = false;
    const r = cell.getBoundingClientRect();
    const box = $("map").getBoundingClientRect();
    tip.style.left = `${Math.min(r.left - box.left, box.width - 320)}px`;
    tip.style.top = `${r.bottom - box.top + 4 > box.height - 40 ? r.top - box.top - 44 : r.bottom - box.top + 4}px`;
  };
  const map = $("map");
  // Every size read before anything is drawn: one layout, not one per section.
  const width = map.parentElement!.clientWidth;
  const height = Math.max(360, Math.min(640, window.innerHeight - 200));
  const graphWidth = Math.min(760, $("graph").clientWidth || 620);
  const activityWidth = Math.max(600, $("activity").clientWidth || 1200);
  if (data.files.length === 0) map.append(h("p", { class: "quiet" }, "No files with lines here."));
  else cells = drawTreemap(map, data.files, data.path, width, height, pick, show);
  $("legend").append(legend(data.files, windowText));
  panel.append(h("p", { class: "quiet" }, "Select a file (click it, or Tab to the map, move with the arrow keys and press Enter) to see what changes with it and its recent history."));

  drawGraph($("graph"), data.graph, graphWidth, 420, (p) => {
    const f = byPath.get(p);
    if (f) pick(f);
  });
  drawFolders($("owners-box"), data.folders, data.path);
  drawActivity($("activity"), data.weeks, data.files.length, activityWidth, 160);
  document.body.dataset.ready = "true";
}

main();

/// <reference lib="dom" />
/** The panel beside the map: the selected file's numbers, its co-change partners and its recent history. */
import { fmt, h, pct, plural } from "./dom.ts";
import type { FileDetail, ReportFile } from "./types.ts";

export function showDetails(panel: HTMLElement, f: ReportFile, d: FileDetail | undefined, pick: (path: string) => void): void {
  panel.replaceChildren();
  panel.append(
    h("h2", { id: "selected", "data-path": f.path }, f.path),
    h("p", {}, `${plural(f.lines, "line")} · ${plural(f.changes, "change")} in the window${d ? ` · ${plural(d.commits, "commit")} in all` : ""}`),
    ...(f.author ? [h("p", {}, `Main author: ${f.author} (${pct(f.share ?? 0)} of lines)`)] : []),
  );
  if (!d) return;
  panel.append(h("h3", {}, `Changes with it (commits together, of the ${fmt(d.cochangeCommits)} in the window that touched it)`));
  if (d.cochange.length === 0) panel.append(h("p", { class: "quiet" }, "No other file changed in the same commits in the window."));
  else {
    const ol = h("ol", { id: "cochange", class: "rows" });
    for (const c of d.cochange) {
      const link = h("button", { type: "button", class: "link", title: `Select ${c.path}` }, c.path);
      link.addEventListener("click", () => pick(c.path));
      ol.append(h("li", { "data-path": c.path, "data-count": c.count }, link, h("span", { class: "num" }, `${fmt(c.count)} (${pct(c.confidence)})`)));
    }
    panel.append(ol);
  }
  panel.append(h("h3", {}, "Recent history"));
  if (d.history.length === 0) panel.append(h("p", { class: "quiet" }, "No commits."));
  else {
    const ol = h("ol", { id: "history", class: "rows" });
    for (const c of d.history) ol.append(h("li", { "data-sha": c.sha }, h("code", {}, c.sha.slice(0, 8)), ` ${c.time.slice(0, 10)} ${c.author}: `, h("span", {}, c.subject)));
    panel.append(ol);
  }
}

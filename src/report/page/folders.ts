/// <reference lib="dom" />
/** Ownership by folder: who wrote most of each folder's lines, and where one person wrote nearly all of it (islands). */
import { fmt, h, pct, plural } from "./dom.ts";
import type { FolderOwner } from "./types.ts";

/** Folders shown: the largest, so the table stays a table. */
const SHOWN = 24;

export function drawFolders(box: HTMLElement, folders: FolderOwner[], root: string): void {
  const rows = [...folders].sort((a, b) => b.lines - a.lines || (a.path < b.path ? -1 : 1)).slice(0, SHOWN);
  rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const islands = folders.filter((f) => f.island).length;
  box.append(h("p", { class: "quiet" }, `${fmt(islands)} of ${plural(folders.length, "folder")} ${islands === 1 ? "is an island" : "are islands"} (one author wrote ≥ 80 % of ${islands === 1 ? "its" : "their"} lines).`));
  const table = h("table", { id: "owners" }, h("thead", {}, h("tr", {}, h("th", {}, "folder"), h("th", {}, "main author"), h("th", { class: "num" }, "share"), h("th", { class: "num" }, "authors"), h("th", { class: "num" }, "lines"))));
  const body = h("tbody");
  for (const f of rows) {
    body.append(
      h(
        "tr",
        { class: f.island ? "island" : undefined },
        h("td", {}, (f.path === root ? (root || ".") : f.path) + "/"),
        h("td", {}, f.author, f.island ? h("span", { class: "tag" }, "island") : null),
        h("td", { class: "num" }, h("span", { class: "bar", style: `width:${Math.round(f.share * 60)}px` }), pct(f.share)),
        h("td", { class: "num" }, fmt(f.authors)),
        h("td", { class: "num" }, fmt(f.lines)),
      ),
    );
  }
  table.append(body);
  box.append(table);
  if (folders.length > rows.length) box.append(h("p", { class: "quiet small" }, `The ${rows.length} largest of ${fmt(folders.length)} folders.`));
}

/// <reference lib="dom" />
/** The treemap of files: area = lines, colour = changes in the window; cells are focusable buttons. */
import { hierarchy, treemap, treemapSquarify, type HierarchyRectangularNode } from "d3-hierarchy";
import { base, fmt, h, heat, plural } from "./dom.ts";
import type { ReportFile } from "./types.ts";

interface Folder {
  name: string;
  children: Tree[];
}
type Tree = Folder | (ReportFile & { name: string });

/** Files nested by folder below `root`, so a folder's files sit together on the map. */
function nest(files: ReportFile[], root: string): Folder {
  const top: Folder = { name: root || "/", children: [] };
  const folders = new Map<string, Folder>([["", top]]);
  // A report on one file nests it in its folder.
  const cut = !root ? 0 : files.some((f) => f.path === root) ? root.lastIndexOf("/") + 1 : root.length + 1;
  for (const f of files) {
    const parts = f.path.slice(cut).split("/");
    let parent = top;
    let key = "";
    for (const part of parts.slice(0, -1)) {
      key += "/" + part;
      let folder = folders.get(key);
      if (!folder) {
        folder = { name: part, children: [] };
        folders.set(key, folder);
        parent.children.push(folder);
      }
      parent = folder;
    }
    parent.children.push({ ...f, name: parts[parts.length - 1]! });
  }
  return top;
}

export function scaleOf(files: ReportFile[]): (changes: number) => number {
  const max = Math.max(1, ...files.map((f) => f.changes));
  // A square root spreads the many rarely-changed files apart from the few busy ones.
  return (c) => Math.sqrt(c / max);
}

export function describe(f: ReportFile): string {
  const who = f.author ? `, main author ${f.author} (${Math.round((f.share ?? 0) * 100)} % of lines)` : "";
  return `${f.path}: ${plural(f.lines, "line")}, ${plural(f.changes, "change")} in the window${who}`;
}

export function drawTreemap(box: HTMLElement, files: ReportFile[], root: string, width: number, height: number, onPick: (f: ReportFile, cell: HTMLElement) => void, onShow: (f: ReportFile | null, cell?: HTMLElement) => void): Map<string, HTMLElement> {
  const scale = scaleOf(files);
  const tree = hierarchy<Tree>(nest(files, root), (d) => ("children" in d ? d.children : undefined))
    .sum((d) => ("lines" in d ? d.lines : 0))
    .sort((a, b) => (b.value ?? 0) - (a.value ?? 0));
  const laid = treemap<Tree>().tile(treemapSquarify).size([width, height]).paddingInner(1).paddingOuter(1).paddingTop((d) => (d.depth === 1 && d.y1 - d.y0 > 40 && d.x1 - d.x0 > 60 ? 14 : 1)).round(true)(tree);
  box.style.width = `${width}px`;
  box.style.height = `${height}px`;
  const cells = new Map<string, HTMLElement>();
  const byPath = new Map(files.map((f) => [f.path, f]));
  for (const node of laid.descendants() as HierarchyRectangularNode<Tree>[]) {
    const w = node.x1 - node.x0;
    const ht = node.y1 - node.y0;
    if (node.children) {
      if (node.depth === 1 && w > 60 && ht > 40)
        box.append(h("div", { class: "folder", style: `left:${node.x0}px;top:${node.y0}px;width:${w}px;height:${ht}px`, "aria-hidden": "true" }, h("span", {}, node.data.name + "/")));
      continue;
    }
    if (!("lines" in node.data)) continue;
    const f = byPath.get(node.data.path)!;
    const v = scale(f.changes);
    const label = w > 46 && ht > 16 ? h("span", {}, base(f.path), w > 90 && ht > 30 ? h("small", {}, `${plural(f.lines, "line")} · ${fmt(f.changes)} ch.`) : null) : null;
    const cell = h("div", { class: "cell", role: "button", tabindex: cells.size === 0 ? 0 : -1, "data-path": f.path, "data-lines": f.lines, "data-changes": f.changes, "aria-label": describe(f), style: `left:${node.x0}px;top:${node.y0}px;width:${w}px;height:${ht}px;background:${heat(v)};color:${v > 0.55 ? "#fff" : "#222"}` }, label);
    cell.addEventListener("click", () => onPick(f, cell));
    cell.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        onPick(f, cell);
      } else if (e.key in STEP) {
        e.preventDefault();
        const next = neighbour(cell, STEP[e.key]!, [...cells.values()]);
        if (next) moveFocus(cell, next);
      }
    });
    cell.addEventListener("mouseenter", () => onShow(f, cell));
    cell.addEventListener("mouseleave", () => onShow(null));
    cell.addEventListener("focus", () => onShow(f, cell));
    cell.addEventListener("blur", () => onShow(null));
    cells.set(f.path, cell);
    box.append(cell);
  }
  return cells;
}

/** Arrow keys move to the nearest cell that way: [dx, dy]. */
const STEP: Record<string, [number, number]> = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

/** The cell nearest `from` in direction `d`, by distance along it plus twice the distance across it. */
function neighbour(from: HTMLElement, d: [number, number], all: HTMLElement[]): HTMLElement | undefined {
  const centre = (e: HTMLElement) => [e.offsetLeft + e.offsetWidth / 2, e.offsetTop + e.offsetHeight / 2] as const;
  const [x, y] = centre(from);
  let best: HTMLElement | undefined;
  let bestCost = Infinity;
  for (const e of all) {
    if (e === from) continue;
    const [cx, cy] = centre(e);
    const along = (cx - x) * d[0] + (cy - y) * d[1];
    if (along <= 0) continue;
    const cost = along + 2 * Math.abs((cx - x) * d[1] + (cy - y) * d[0]);
    if (cost < bestCost) [best, bestCost] = [e, cost];
  }
  return best;
}

/** One cell of the map is in the Tab order at a time (the last one visited): Tab goes on past the map, arrows move within it. */
export function moveFocus(from: HTMLElement | undefined, to: HTMLElement): void {
  if (from && from !== to) from.tabIndex = -1;
  to.tabIndex = 0;
  to.focus();
}

/** The colour legend: what pale and dark mean, in numbers. */
export function legend(files: ReportFile[], windowText: string): HTMLElement {
  const max = Math.max(0, ...files.map((f) => f.changes));
  const stops = [0, 0.25, 0.5, 0.75, 1].map((t) => heat(t)).join(",");
  const marks = [0, Math.round(max / 4), Math.round(max)].filter((v, i, a) => a.indexOf(v) === i);
  const scale = scaleOf(files);
  return h(
    "div",
    { class: "legend" },
    h("span", {}, `Area: lines. Colour: commits that changed the file in ${windowText}:`),
    h("span", { class: "ramp", style: `background:linear-gradient(90deg,${stops})` }),
    ...marks.map((m) => h("span", { class: "mark" }, h("i", { style: `background:${heat(scale(m))}` }), fmt(m))),
  );
}

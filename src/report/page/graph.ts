/// <reference lib="dom" />
/** The co-change graph of the top hotspots, laid out once by d3-force (no animation: the page is a picture). */
import { forceCenter, forceCollide, forceLink, forceManyBody, forceSimulation, forceX, forceY, type SimulationNodeDatum } from "d3-force";
import { fmt, h, plural, s } from "./dom.ts";
import { shortLabels } from "./labels.ts";
import type { ReportData } from "./types.ts";

interface Node extends SimulationNodeDatum {
  path: string;
  changes: number;
}

export function drawGraph(box: HTMLElement, graph: ReportData["graph"], width: number, height: number, pick: (path: string) => void): void {
  if (graph.nodes.length === 0) {
    box.append(h("p", { class: "quiet" }, "No file changed in the window."));
    return;
  }
  const nodes: Node[] = graph.nodes.map((n, i) => ({ path: n.path, changes: n.changes, x: width / 2 + 80 * Math.cos(i), y: height / 2 + 80 * Math.sin(i) }));
  const byPath = new Map(nodes.map((n) => [n.path, n]));
  // A monorepo has many package.json: a node says as much of its path as tells it apart.
  const name = shortLabels(nodes.map((n) => n.path));
  const links = graph.links.map((l) => ({ source: byPath.get(l.source)!, target: byPath.get(l.target)!, count: l.count }));
  const maxCount = Math.max(1, ...links.map((l) => l.count));
  const maxChanges = Math.max(1, ...nodes.map((n) => n.changes));
  const radius = (n: Node) => 4 + 10 * Math.sqrt(n.changes / maxChanges);
  forceSimulation(nodes)
    .force("link", forceLink(links).distance((l) => 110 - 60 * (l.count / maxCount)).strength((l) => 0.2 + 0.8 * (l.count / maxCount)))
    .force("charge", forceManyBody().strength(-260))
    .force("center", forceCenter(width / 2, height / 2))
    .force("x", forceX(width / 2).strength(0.06))
    .force("y", forceY(height / 2).strength(0.1))
    .force("collide", forceCollide<Node>((n) => radius(n) + 4))
    .stop()
    .tick(300);
  const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
  for (const n of nodes) {
    n.x = clamp(n.x!, 60, width - 60);
    n.y = clamp(n.y!, 14, height - 14);
  }
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": `Co-change graph of the ${nodes.length} top hotspots` });
  for (const l of links)
    svg.append(s("line", { x1: l.source.x!, y1: l.source.y!, x2: l.target.x!, y2: l.target.y!, "stroke-width": (1 + 5 * (l.count / maxCount)).toFixed(1), class: "edge" }, s("title", {}, `${l.source.path} ↔ ${l.target.path}: ${plural(l.count, "commit")} together`)));
  for (const n of nodes) {
    const g = s("g", { class: "node", tabindex: 0, role: "button", "data-path": n.path, "aria-label": `${n.path}: ${plural(n.changes, "change")}` }, s("title", {}, `${n.path}: ${plural(n.changes, "change")} in the window`), s("circle", { cx: n.x!, cy: n.y!, r: radius(n).toFixed(1) }), s("text", { x: n.x!, y: n.y! - radius(n) - 3 }, name.get(n.path)!));
    g.addEventListener("click", () => pick(n.path));
    g.addEventListener("keydown", (e) => {
      if ((e as KeyboardEvent).key === "Enter") pick(n.path);
    });
    svg.append(g);
  }
  box.append(svg);
  const top = links.slice(0, 8);
  if (top.length) box.append(h("p", { class: "quiet small" }, "Strongest pairs: " + top.map((l) => `${name.get(l.source.path)} + ${name.get(l.target.path)} (${fmt(l.count)})`).join(", ") + "."));
}

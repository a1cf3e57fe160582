/// <reference lib="dom" />
/** Commits per week to the files drawn, as bars, with the numbers said in words (and what they count). */
import { fmt, h, plural, s } from "./dom.ts";

const DAY = 86_400_000;

/** `files`: how many files' commits `weeks` counts (the files drawn): the figures say so, not the repository's total. */
export function drawActivity(box: HTMLElement, weeks: [string, number][], files: number, width: number, height: number): void {
  if (weeks.length === 0) {
    box.append(h("p", { class: "quiet" }, "No commits."));
    return;
  }
  const first = Date.parse(weeks[0]![0]);
  const last = Date.parse(weeks[weeks.length - 1]![0]);
  const n = Math.round((last - first) / (7 * DAY)) + 1;
  const counts = new Array<number>(n).fill(0);
  for (const [w, c] of weeks) counts[Math.round((Date.parse(w) - first) / (7 * DAY))] = c;
  const max = Math.max(...counts);
  const total = counts.reduce((a, b) => a + b, 0);
  const busiest = weeks.reduce((a, b) => (b[1] > a[1] ? b : a));
  const pad = 18;
  // A few weeks are drawn as a few bars, not as bars as wide as the page.
  const bw = Math.min(14, (width - 40) / n);
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": `Commits per week from ${weeks[0]![0]} to ${weeks[weeks.length - 1]![0]}` });
  svg.append(s("text", { x: 0, y: 10, class: "axis" }, fmt(max)), s("text", { x: 0, y: height - pad, class: "axis" }, "0"));
  counts.forEach((c, i) => {
    if (c === 0) return;
    const bh = Math.max(1, ((height - pad - 4) * c) / max);
    const week = new Date(first + i * 7 * DAY).toISOString().slice(0, 10);
    svg.append(s("rect", { x: (40 + i * bw).toFixed(2), y: (height - pad - bh).toFixed(1), width: Math.max(1, bw - 0.5).toFixed(2), height: bh.toFixed(1), class: "week" }, s("title", {}, `week of ${week}: ${plural(c, "commit")}`)));
  });
  let lastYear = "";
  let lastX = -Infinity;
  for (let i = 0; i < n; i++) {
    const year = new Date(first + i * 7 * DAY).toISOString().slice(0, 4);
    const x = 40 + i * bw;
    if (year === lastYear || x - lastX < 34) continue;
    lastYear = year;
    lastX = x;
    svg.append(s("text", { x: x.toFixed(1), y: height - 4, class: "axis" }, year));
  }
  box.append(svg);
  box.append(
    h(
      "p",
      { class: "quiet" },
      `${plural(total, "commit")} changed the ${plural(files, "file")} drawn above, over ${plural(n, "week")} (${weeks[0]![0]} to ${weeks[weeks.length - 1]![0]}); the busiest week, of ${busiest[0]}, had ${plural(busiest[1], "commit")}. Commits that changed only other files (or files since deleted) are not counted: this is not the repository's total.`,
    ),
  );
}

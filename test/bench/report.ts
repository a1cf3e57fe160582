/** Printing benchmark results: Markdown tables, the machine they ran on, and the block of docs/benchmarks.md they are kept in. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, totalmem } from "node:os";
import { spawnSync } from "node:child_process";

export interface Table {
  title: string;
  head: string[];
  rows: string[][];
  /** One letter per column, l or r (default: the first left, the rest right). */
  align?: string;
  /** Lines printed under the table: what was measured and how. */
  notes?: string[];
}

export function markdownTable(t: Table): string {
  const widths = t.head.map((h, i) => Math.max(h.length, ...t.rows.map((r) => (r[i] ?? "").length)));
  const left = (i: number) => (t.align ? t.align[i] !== "r" : i === 0);
  const line = (cells: string[]) => "| " + cells.map((c, i) => (left(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ") + " |";
  const rule = "|" + widths.map((w, i) => (left(i) ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|") + "|";
  const out = [`**${t.title}**`, "", line(t.head), rule, ...t.rows.map(line)];
  if (t.notes?.length) out.push("", ...t.notes);
  return out.join("\n");
}

export function ms(n: number): string {
  if (!Number.isFinite(n)) return "n/a";
  if (n < 1) return `${n.toFixed(3)} ms`;
  if (n < 10) return `${n.toFixed(1)} ms`;
  if (n < 10_000) return `${Math.round(n)} ms`;
  return `${(n / 1000).toFixed(1)} s`;
}

export function ratio(a: number, b: number): string {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return "n/a";
  const r = a / b;
  return r < 0.01 ? `${r.toFixed(4)}×` : `${r.toFixed(2)}×`;
}

export function bytes(n: number): string {
  if (!Number.isFinite(n)) return "n/a";
  if (n < 10 * 1024) return `${n} B`;
  if (n < 10 * 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

export function num(n: number, digits = 3): string {
  return Number.isFinite(n) ? n.toFixed(digits) : "n/a";
}

export interface Machine {
  cpu: string;
  cores: number;
  memGiB: number;
  os: string;
  bun: string;
  git: string;
  date: string;
}

export function machine(): Machine {
  let cpu = "unknown cpu";
  try {
    cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ?? cpu;
  } catch {}
  const git = spawnSync("git", ["--version"], { encoding: "utf8" }).stdout?.trim().replace(/^git version /, "") ?? "?";
  return {
    cpu,
    cores: availableParallelism(),
    memGiB: Math.round(totalmem() / 2 ** 30),
    os: `${process.platform} ${process.arch}`,
    bun: Bun.version,
    git,
    date: new Date().toISOString().slice(0, 10),
  };
}

export function machineLine(m: Machine): string {
  return `${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, ${m.os}; bun ${m.bun}, git ${m.git}; ${m.date}`;
}

export const README_START = "<!-- bench:start -->";
export const README_END = "<!-- bench:end -->";

/** Where `marker` stands on a line of its own (a page may name its markers in its prose: those are not the block). */
export function markerAt(text: string, marker: string): number {
  const m = new RegExp(`^${marker.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[ \t]*$`, "m").exec(text);
  return m ? m.index : -1;
}

/** Replaces what is between the markers in the README (adding "## Speed" with the markers at the end when missing). */
export function writeReadmeBlock(path: string, block: string): void {
  const text = existsSync(path) ? readFileSync(path, "utf8") : "";
  const body = `${README_START}\n${block.trim()}\n${README_END}`;
  const start = markerAt(text, README_START);
  const end = markerAt(text, README_END);
  let next: string;
  if (start >= 0 && end > start) next = text.slice(0, start) + body + text.slice(end + README_END.length);
  else {
    const heading = /^## Speed[ \t]*$/m.exec(text);
    if (heading) {
      // The section exists without markers: the block goes at its end, before the next section.
      const after = heading.index + heading[0].length;
      const following = /^## /m.exec(text.slice(after));
      const cut = following ? after + following.index : text.length;
      const before = text.slice(0, cut).replace(/\s*$/, "");
      next = `${before}\n\n${body}\n${following ? "\n" + text.slice(cut) : ""}`;
    } else next = `${text.replace(/\s*$/, "")}\n\n## Speed\n\n${body}\n`;
  }
  writeFileSync(path, next);
}

/** Replaces what is between `<!-- NAME:start -->` and `<!-- NAME:end -->` in a file. */
export function writeBlock(path: string, name: string, block: string): void {
  const text = readFileSync(path, "utf8");
  const [a, b] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];
  const i = markerAt(text, a);
  const j = markerAt(text, b);
  if (i < 0 || j < i) throw new Error(`${path} has no ${a} … ${b} block`);
  writeFileSync(path, `${text.slice(0, i + a.length)}\n${block.trim()}\n${text.slice(j)}`);
}

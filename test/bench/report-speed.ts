/** The report's costs: `lore report --out` warm (through the daemon), the page's render in headless Chromium, its size. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findChromium, openBrowser } from "../report/browser.ts";
import type { LoreCli } from "./lore-cli.ts";
import { bytes, ms, type Table } from "./report.ts";
import { mustRun, repeat, summarize, type Sampled } from "./timing.ts";

export interface ReportSpeed {
  write: Sampled;
  bytes: number;
  files: number;
  /** Navigation start to the first frame after the page has drawn; undefined without a Chromium. */
  render?: Sampled;
}

export async function measureReport(cli: LoreCli, repo: string, env: Record<string, string>, scratch: string, runs: number, warmups: number): Promise<ReportSpeed> {
  const out = join(scratch, "report.html");
  const write = await repeat(() => mustRun([...cli.argv, "report", "--out", out], { cwd: repo, env }), runs, Math.max(1, warmups));
  const html = readFileSync(out, "utf8");
  const files = (JSON.parse(html.split('id="lore-data">')[1]!.split("</script>")[0]!) as { files: unknown[] }).files.length;
  const chromium = findChromium();
  if (!chromium) return { write, bytes: Buffer.byteLength(html), files };
  const browser = await openBrowser(chromium);
  try {
    const samples: number[] = [];
    for (let i = 0; i < warmups + runs; i++) {
      const page = await browser.context.newPage();
      await page.goto(`file://${out}`);
      await page.waitForSelector("body[data-ready]");
      const t = await page.evaluate(() => new Promise<number>((r) => requestAnimationFrame(() => r(performance.now()))));
      if (i >= warmups) samples.push(t);
      await page.close();
    }
    return { write, bytes: Buffer.byteLength(html), files, render: summarize(samples) };
  } finally {
    await browser.close();
  }
}

export function reportTable(r: ReportSpeed, cliLabel: string): Table {
  return {
    title: "The report (lore report)",
    head: ["", "p50", "p99", "target"],
    rows: [
      ["written, warm (`lore report --out`, through the daemon)", ms(r.write.p50), ms(r.write.p99), "≤ 1 s"],
      ["page drawn in headless Chromium (1280×800)", r.render ? ms(r.render.p50) : "n/a", r.render ? ms(r.render.p99) : "n/a", "≤ 1 s"],
      [`file size (${r.files} files in the map)`, bytes(r.bytes), "", "< 1 MB"],
    ],
    notes: [
      `Written: ${cliLabel} from process start to exit, the daemon's index warm. Drawn: from navigation start (file://) to the first frame after the page's script has drawn everything.` +
        (r.render ? "" : " No Chromium was found, so the page was not drawn."),
    ],
  };
}

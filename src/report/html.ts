/** The report as one self-contained HTML file: the data as JSON, the bundled page script, the styles; nothing fetched. */
import { createHash } from "node:crypto";
import { PAGE_SCRIPT } from "./page-bundle.ts";
import type { ReportData } from "./page/types.ts";

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:13px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;background:#fafafa}
header{padding:10px 16px 4px}
h1{font-size:18px;margin:0}
h2{font-size:15px;margin:0 0 6px;word-break:break-all}
h3{font-size:13px;margin:12px 0 4px}
section{padding:8px 16px}
.top{display:grid;grid-template-columns:minmax(0,1fr) 380px;gap:16px;padding:0 16px}
#map{position:relative;background:#fff}
.cell{position:absolute;overflow:hidden;cursor:pointer;padding:2px 3px;font-size:11px;line-height:1.2;outline-offset:-2px}
.cell span{display:block;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.cell small{display:block;font-size:10px;opacity:.85}
.cell:hover,.cell:focus{outline:2px solid #000;z-index:2}
.cell.selected{outline:3px solid #0057d9;z-index:3}
.folder{position:absolute;border:1px solid #bbb;background:#f1f1f1}
.folder span{font-size:11px;font-weight:600;padding:0 3px;color:#444}
#tip{position:absolute;z-index:9;max-width:360px;background:#222;color:#fff;padding:4px 8px;border-radius:3px;font-size:12px;pointer-events:none}
.legend{display:flex;align-items:center;gap:10px;flex-wrap:wrap;margin:6px 0;font-size:12px}
.ramp{display:inline-block;width:140px;height:10px;border:1px solid #ccc}
.mark i{display:inline-block;width:10px;height:10px;margin-right:3px;border:1px solid #999;vertical-align:-1px}
#panel{background:#fff;border:1px solid #ddd;padding:10px;overflow:auto}
.rows{margin:0;padding-left:20px}
.rows li{margin:2px 0;overflow-wrap:anywhere}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap;color:#555;margin-left:6px}
.link{border:0;background:none;padding:0;color:#0645ad;cursor:pointer;font:inherit;text-align:left;text-decoration:underline}
.quiet{color:#555}
.small{font-size:12px}
.row2{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:16px}
.row2>section{min-width:0}
#owners td:first-child{overflow-wrap:anywhere}
#graph svg{background:#fff;border:1px solid #ddd;max-width:100%;height:auto}
.edge{stroke:#888;stroke-opacity:.55}
.node circle{fill:#d9480f;stroke:#fff;stroke-width:1.5}
.node text{font-size:10px;text-anchor:middle;fill:#222;paint-order:stroke;stroke:#fff;stroke-width:3px}
.node:focus circle,.node:hover circle{stroke:#000;stroke-width:2}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border-bottom:1px solid #eee;padding:2px 6px;text-align:left}
th.num,td.num{text-align:right}
.bar{display:inline-block;height:8px;background:#6b8fd6;margin-right:6px}
.tag{margin-left:6px;font-size:11px;border:1px solid #999;border-radius:3px;padding:0 3px}
.week{fill:#4a6fb5}
.axis{font-size:10px;fill:#555}
#activity svg{display:block;width:100%;height:auto;background:#fff}
`;

/** JSON that cannot close the script element it sits in. */
function scriptSafe(json: string): string {
  return json.replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

export function reportHtml(data: ReportData): string {
  const script = PAGE_SCRIPT.replace(/<\/script/gi, "<\\/script");
  const hash = createHash("sha256").update(script).digest("base64");
  // Only the script we wrote runs, and nothing is fetched: the page works from file:// and tells no one it was opened.
  const csp = `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; img-src data:`;
  const name = escapeHtml(data.repo.split("/").pop() || data.repo);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>lore report: ${name}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>lore report: <span id="title">${name}</span></h1><p id="summary" class="quiet"></p></header>
<div class="top">
<div><div id="map" role="group" aria-label="Treemap of files"><div id="tip" role="status" hidden></div></div><div id="legend"></div></div>
<aside id="panel" aria-live="polite"></aside>
</div>
<div class="row2">
<section><h2>What changes together: the top hotspots</h2><div id="graph"></div></section>
<section><h2>Ownership by folder</h2><div id="owners-box"></div></section>
</div>
<section><h2>Commits per week to the files drawn</h2><div id="activity"></div></section>
<script type="application/json" id="lore-data">${scriptSafe(JSON.stringify(data))}</script>
<script>${script}</script>
</body>
</html>
`;
}

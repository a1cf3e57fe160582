/** `lore report [PATH] [--out FILE.html]`: the repository as a picture, written to a file or served by the daemon on 127.0.0.1. */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseCommandArgv } from "../cli/argv.ts";
import { withProgress, type IndexState } from "../cli/progress.ts";
import { callQuestion, daemonDisabled } from "../client/call.ts";
import { rpcCall } from "../client/rpc-client.ts";
import { daemonPaths } from "../client/socket-path.ts";
import { LoreError } from "../errors.ts";
import { runtime } from "../runtime/index.ts";

const HELP = `lore report: the repository as a picture, for people

Usage: lore report [PATH] [--out FILE.html] [flags]

A treemap of the files under PATH (area = lines, colour = changes in the window),
each file's co-change partners and recent history, the co-change graph of the top
hotspots, ownership by folder and commits per week, in one self-contained HTML file
(no network: open it from disk).

Without --out, the daemon serves it on 127.0.0.1 at a URL with a random token,
printed here; it answers nothing without the token and stops with the daemon.

Flags:
  -o, --out FILE          Write the report to FILE instead of serving it
  --until REV             The repository as of this revision (default HEAD)
  --repo DIR              The repository: a folder inside it (default: the current folder's)
  --json                  Print {"out", "bytes"} or {"url"} as JSON
  --no-daemon             Build it in this process (needs --out)`;

/** What the daemon's report of this ticket is doing, said as the progress line says it; nothing before it starts. */
async function reportProgress(ticket: string): Promise<string | undefined> {
  const p = (await rpcCall(daemonPaths().socket, "report.progress", { ticket }, { timeoutMs: 1000 })) as { message: string } | null;
  return p ? `report: ${p.message}` : undefined;
}

export async function reportCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgv(
    argv,
    { out: { type: "string", short: "o" }, until: { type: "string" }, repo: { type: "string" }, json: { type: "boolean" }, "no-daemon": { type: "boolean" }, help: { type: "boolean", short: "h" } },
    "report",
    true,
  );
  if (values.help) {
    await runtime.write(1, HELP + "\n");
    return 0;
  }
  if (positionals.length > 1) throw new LoreError("USAGE", `lore report takes one PATH, not ${positionals.length}. Run lore report --help.`);
  const cwd = process.cwd();
  const repo = resolve(cwd, typeof values.repo === "string" ? values.repo : ".");
  const params = {
    repo,
    ...(positionals[0] !== undefined ? { path: resolve(cwd, positionals[0]) } : {}),
    ...(typeof values.until === "string" ? { until: values.until } : {}),
  };
  const here = daemonDisabled({ noDaemon: values["no-daemon"] === true });
  const out = typeof values.out === "string" ? resolve(cwd, values.out) : undefined;
  const daemon = { cwd, noDaemon: false };
  // A first report reads every file's history and blame (minutes on a big repository): on a terminal
  // it says what it is doing and how far it got, else how far the index is, as the questions do.
  const status = () => (here ? Promise.resolve({}) : (callQuestion("status", { repo }, daemon) as Promise<IndexState>));
  const ticket = !here && (await runtime.isTerminal(2)) ? Math.random().toString(36).slice(2) : undefined;
  const asked = ticket ? () => reportProgress(ticket) : undefined;
  const sent = ticket ? { ...params, ticket } : params;
  if (!out) {
    if (here) throw new LoreError("USAGE", "Without the daemon there is nothing to serve the report: pass --out FILE.html.");
    const { url } = (await withProgress(callQuestion("report.serve", sent, daemon), status, "blame", asked)) as { url: string };
    await runtime.write(1, values.json ? JSON.stringify({ url }) + "\n" : `${url}\n`);
    if (!values.json) await runtime.write(2, "Open it in a browser on this machine; it is served while the lore daemon runs.\n");
    return 0;
  }
  let html: string;
  if (here) {
    const [{ askHere }, { buildReport }] = await Promise.all([import("./ask-here.ts"), import("./build.ts")]);
    let doing: string | undefined;
    html = await withProgress(
      (async () => buildReport(await askHere(repo), params, (message) => (doing = message)))(),
      status,
      "blame",
      async () => (doing ? `report: ${doing}` : "report: indexing the repository"),
    );
  } else html = ((await withProgress(callQuestion("report", sent, daemon), status, "blame", asked)) as { html: string }).html;
  try {
    writeFileSync(out, html);
  } catch (err) {
    throw new LoreError("USAGE", `lore cannot write ${out}: ${(err as Error).message}`, { cause: err });
  }
  const bytes = Buffer.byteLength(html);
  await runtime.write(1, values.json ? JSON.stringify({ out, bytes }) + "\n" : `wrote ${out} (${Math.round(bytes / 1024)} KB); open file://${out} in a browser\n`);
  return 0;
}

/** The daemon's report methods: `report` (the HTML, for --out), `report.serve` (a URL on the loopback listener) and `report.progress` (what a report asked with a ticket is doing). */
import type { Repos } from "../daemon/repos.ts";
import type { Method } from "../daemon/rpc.ts";
import { buildReport, reportRequest, type ReportRequest } from "./build.ts";
import type { Ask } from "./data.ts";
import { ReportServer } from "./serve.ts";

export function reportMethods(repos: Repos, life: { begin: () => void; end: () => void; onStop: (hook: () => Promise<void>) => void }): [string, Method][] {
  // What each report being built with a ticket is doing: the CLI shows it while a person waits.
  const doing = new Map<string, string>();
  const build = async (req: ReportRequest, ticket?: unknown) => {
    // The same path every question takes in the daemon: the index at HEAD, and its cache of answers.
    const ask: Ask = async (name, input, opts) => JSON.parse((await repos.answer(name, { ...input, repo: req.repo }, opts)).text);
    if (typeof ticket !== "string") return buildReport(ask, req);
    try {
      return await buildReport(ask, req, (message) => doing.set(ticket, message));
    } finally {
      doing.delete(ticket);
    }
  };
  let server: ReportServer | undefined;
  return [
    ["report", async (params) => ({ html: await build(reportRequest(params), params.ticket) })],
    ["report.progress", (params) => (typeof params.ticket === "string" && doing.has(params.ticket) ? { message: doing.get(params.ticket)! } : null)],
    [
      "report.serve",
      async (params) => {
        const req = reportRequest(params);
        // Built once now: a wrong path or revision is said here, and the first visit finds the index warm.
        await build(req, params.ticket);
        if (!server) {
          const s = (server = new ReportServer({ build: (r) => build(r), begin: () => life.begin(), end: () => life.end() }));
          life.onStop(() => s.stop());
        }
        return { url: await server.add(req) };
      },
    ],
  ];
}

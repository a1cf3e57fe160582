/** The daemon's report methods: `report` (the HTML, for --out) and `report.serve` (a URL on the loopback listener). */
import type { Repos } from "../daemon/repos.ts";
import type { Method } from "../daemon/rpc.ts";
import { buildReport, reportRequest, type ReportRequest } from "./build.ts";
import type { Ask } from "./data.ts";
import { ReportServer } from "./serve.ts";

export function reportMethods(repos: Repos, life: { begin: () => void; end: () => void; onStop: (hook: () => Promise<void>) => void }): [string, Method][] {
  const build = (req: ReportRequest) => {
    // The same path every question takes in the daemon: the index at HEAD, and its cache of answers.
    const ask: Ask = async (name, input, opts) => JSON.parse((await repos.answer(name, { ...input, repo: req.repo }, opts)).text);
    return buildReport(ask, req);
  };
  let server: ReportServer | undefined;
  return [
    ["report", async (params) => ({ html: await build(reportRequest(params)) })],
    [
      "report.serve",
      async (params) => {
        const req = reportRequest(params);
        // Built once now: a wrong path or revision is said here, and the first visit finds the index warm.
        await build(req);
        if (!server) {
          const s = (server = new ReportServer({ build, begin: () => life.begin(), end: () => life.end() }));
          life.onStop(() => s.stop());
        }
        return { url: await server.add(req) };
      },
    ],
  ];
}

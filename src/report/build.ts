/** A report's HTML from its request: asked of the daemon's open repositories, or of this process. */
import { findQuery } from "../queries/index.ts";
import { askShape, reportData, type Ask } from "./data.ts";
import { reportHtml } from "./html.ts";
import { LoreError } from "../errors.ts";

export interface ReportRequest {
  /** A folder inside the repository (absolute in the daemon). */
  repo: string;
  path?: string;
  until?: string;
}

export function reportRequest(params: Record<string, unknown>): ReportRequest {
  const str = (k: string) => {
    const v = params[k];
    if (v !== undefined && (typeof v !== "string" || v.includes("\0"))) throw new LoreError("BAD_ARGUMENT", `${k} must be a string.`);
    return v as string | undefined;
  };
  const repo = str("repo");
  if (!repo) throw new LoreError("BAD_ARGUMENT", "report needs repo: a folder inside the repository.");
  const path = str("path");
  const until = str("until");
  return { repo, ...(path ? { path } : {}), ...(until ? { until } : {}) };
}

/** `onProgress` is told what it is doing as it goes. */
export async function buildReport(ask: Ask, req: ReportRequest, onProgress?: (message: string) => void): Promise<string> {
  const shape = askShape({ cochange: findQuery("cochange")!.args });
  return reportHtml(await reportData(ask, shape, { path: req.path, until: req.until, onProgress }));
}

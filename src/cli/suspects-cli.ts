/** What the command line adds to suspects: --trace reads a file or stdin, and --bisect confirms the suspects here, in the user's shell, never in the daemon. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { LoreError } from "../errors.ts";
import { gitMaybe } from "../git/run.ts";
import type { SuspectsOutput } from "../queries/suspects.ts";
import { confirm, type Confirmed } from "./bisect.ts";

/** How many of the top suspects --bisect tries. */
const TOP = 3;

/** The input the daemon is sent: the trace's text instead of its file name; --bisect kept here. */
export function suspectsInput(input: Record<string, unknown>, cwd: string): { input: Record<string, unknown>; bisect?: { command: string; timeoutMs: number } } {
  const { bisect, bisectTimeout, ...rest } = input;
  if (typeof rest.trace === "string") {
    const from = rest.trace;
    try {
      rest.trace = readFileSync(from === "-" ? 0 : resolve(cwd, from), "utf8");
    } catch {
      throw new LoreError("BAD_ARGUMENT", `--trace takes a file with the trace (or - for stdin); cannot read ${from}.`);
    }
  }
  return { input: rest, ...(typeof bisect === "string" ? { bisect: { command: bisect, timeoutMs: (typeof bisectTimeout === "number" ? bisectTimeout : 300) * 1000 } } : {}) };
}

/** Runs --bisect over the top suspects; the answer gains `bisect`. */
export async function bisectSuspects(answer: SuspectsOutput, bisect: { command: string; timeoutMs: number }, log: (line: string) => void): Promise<SuspectsOutput & { bisect: Confirmed[] }> {
  const top: { sha: string; parent: string }[] = [];
  for (const s of answer.suspects.slice(0, TOP)) {
    const out = await gitMaybe(["rev-parse", `${s.sha}^1`, `${s.sha}^{commit}`, "--"], { cwd: answer.repo });
    const [parent, sha] = (out?.toString("utf8") ?? "").trim().split("\n");
    if (parent && sha) top.push({ sha, parent });
  }
  const results = await confirm(answer.repo, top, bisect.command, bisect.timeoutMs, log);
  return { ...answer, bisect: results.map((c) => ({ ...c, sha: c.sha.slice(0, 12) })) };
}

/** Sends a question to where it is answered: the daemon (started when absent), or this process with --no-daemon. */
import { resolve } from "node:path";
import { LoreError } from "../errors.ts";
import { DaemonMismatch, DaemonUnreachable, rpcCall } from "./rpc-client.ts";
import { daemonPaths } from "./socket-path.ts";

export interface CallOptions {
  cwd: string;
  noDaemon: boolean;
}

/** --no-daemon or LORE_NO_DAEMON=1: answer in this process. */
export function daemonDisabled(opts: { noDaemon?: boolean }): boolean {
  return opts.noDaemon === true || process.env.LORE_NO_DAEMON === "1";
}

export async function callQuestion(name: string, input: Record<string, unknown>, opts: CallOptions): Promise<unknown> {
  if (daemonDisabled(opts)) {
    // Loaded only here: the daemon path never needs the index code in this process.
    const { answer } = await import("../queries/answer.ts");
    return answer(name, input, { cwd: opts.cwd });
  }
  // The daemon has no idea where we stand: the repository goes as an absolute path.
  const params = { ...input, repo: resolve(opts.cwd, typeof input.repo === "string" ? input.repo : ".") };
  const paths = daemonPaths();
  try {
    return await rpcCall(paths.socket, name, params);
  } catch (err) {
    if (!(err instanceof DaemonUnreachable || err instanceof DaemonMismatch)) throw err;
  }
  const { ensureDaemon } = await import("./spawn.ts");
  await ensureDaemon(paths);
  try {
    return await rpcCall(paths.socket, name, params);
  } catch (err) {
    if (!(err instanceof DaemonUnreachable || err instanceof DaemonMismatch)) throw err;
    throw new LoreError("DAEMON_UNAVAILABLE", `The lore daemon stopped while answering (${err.message}); see ${paths.log}, or pass --no-daemon to answer without it.`, { cause: err });
  }
}

/** How far the call named `ticket` got, as the daemon says it ("search: searched 31,200 of 81,966 commits, back to 2015-03"). */
export async function askProgress(ticket: string): Promise<string | undefined> {
  const p = (await rpcCall(daemonPaths().socket, "progress", { ticket }, { timeoutMs: 1000 })) as { message: string; done?: number } | null;
  // Nothing of its own to say yet (it waits for the index, say): the index's progress line says it.
  return p?.done === undefined ? undefined : p.message;
}

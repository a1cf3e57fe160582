/** Sends a question to where it is answered: the daemon, or this process with --no-daemon. */
import { answer } from "../queries/answer.ts";

export interface CallOptions {
  cwd: string;
  noDaemon: boolean;
}

export async function callQuestion(name: string, input: Record<string, unknown>, opts: CallOptions): Promise<unknown> {
  return answer(name, input, { cwd: opts.cwd });
}

/** One JSON line per request, on stderr or a file: who (the token's name), what (tool, repository), how long, how it ended. Never a token, never an answer. */
import { appendFileSync } from "node:fs";

export interface Entry {
  token?: string;
  method?: string;
  tool?: string;
  repo?: string;
  status: number;
  ms: number;
  outcome: string;
}

export type Logger = (fields: Record<string, unknown>) => void;

export function logger(file?: string): Logger {
  return (fields) => {
    const line = JSON.stringify({ time: new Date().toISOString(), ...fields }) + "\n";
    if (file) appendFileSync(file, line, { mode: 0o600 });
    else process.stderr.write(line);
  };
}

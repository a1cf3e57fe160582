/** Colour for people at a terminal: only on a TTY, never with NO_COLOR. */
import { runtime } from "../runtime/index.ts";

export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;

const COLOUR: Style = { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), cyan: wrap(36, 39) };
const PLAIN: Style = { bold: (s) => s, dim: (s) => s, red: (s) => s, green: (s) => s, yellow: (s) => s, cyan: (s) => s };

/** The style for stdout (1) or stderr (2): NO_COLOR and FORCE_COLOR first, then whether it is a terminal. */
export async function styleFor(fd: 1 | 2): Promise<Style> {
  const env = process.env;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return PLAIN;
  if (env.FORCE_COLOR && env.FORCE_COLOR !== "0") return COLOUR;
  return env.TERM !== "dumb" && (await runtime.isTerminal(fd)) ? COLOUR : PLAIN;
}

export const plain: Style = PLAIN;

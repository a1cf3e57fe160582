/**
 * How a face names what the reader can do next: the command line in flags (-n 40, --diff-lines,
 * --continue T), MCP in its parameters (limit, diffLines, continue "T"). A renderer says "raise the
 * limit" once, and each face says it in its own words.
 */
import type { AnyQuery } from "../../queries/define.ts";
import { findQuery } from "../../queries/index.ts";
import { flagName } from "../../queries/arg-words.ts";

export interface Words {
  face: "cli" | "mcp";
  /** How to set an argument of this question (-n 40, --all, limit: 40, all: true); undefined where this face does not take it. */
  set(field: string, value?: string | number | boolean): string | undefined;
  /** How to ask another question: lore contributors, lore_contributors. */
  ask(question: string): string;
  /** How to ask for the items after a continue token. */
  rest(token: string): string;
}

function cliSet(def: AnyQuery | undefined, field: string, value?: string | number | boolean): string | undefined {
  const spec = def?.args[field];
  if (!spec) return undefined;
  if (field === "startLine" || field === "endLine") return value === undefined ? "-L" : `-L ${value}`;
  if (spec.type === "boolean") return `--${flagName(field, spec)}`;
  const flag = spec.short ? `-${spec.short}` : `--${flagName(field, spec)}`;
  return value === undefined ? flag : `${flag} ${value}`;
}

function mcpSet(def: AnyQuery | undefined, field: string, value?: string | number | boolean): string | undefined {
  const spec = def?.args[field];
  if (!def || def.mcp === false || !spec || spec.cliOnly) return undefined;
  return value === undefined ? field : `${field}: ${typeof value === "string" ? JSON.stringify(value) : value}`;
}

/** The words of one face for one question. */
export function wordsFor(question: string, face: "cli" | "mcp"): Words {
  const def = findQuery(question);
  return face === "cli"
    ? { face, set: (f, v) => cliSet(def, f, v), ask: (q) => `lore ${q}`, rest: (t) => `--continue ${t}` }
    : { face, set: (f, v) => mcpSet(def, f, v), ask: (q) => `lore_${q}`, rest: (t) => `continue "${t}"` };
}

/**
 * The one line a cut list ends with (`… more commits: -n 40 for more, --continue T for the rest`):
 * how to ask for a longer list, and the token for the items after these. Over MCP only the token
 * (an agent goes on with it; a second way costs tokens and says nothing new); the raise where no token came.
 */
export function moreLine(w: Words, what: string, r: { truncated?: boolean; continue?: string; partial?: true }, raise?: [field: string, value: number], note?: string): string[] {
  // A partial answer's own line (partial.ts) says how to go on.
  if (r.partial || (!r.truncated && !r.continue)) return [];
  const more = raise && !(w.face === "mcp" && r.continue) ? w.set(raise[0], raise[1]) : undefined;
  const ways = [...(more ? [`${more} for more`] : []), ...(r.continue ? [`${w.rest(r.continue)} for the rest`] : [])];
  if (ways.length === 0) return [];
  return [`… ${what}: ${ways.join(", ")}${note ? ` (${note})` : ""}`];
}

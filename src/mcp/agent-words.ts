/**
 * Messages are written in the command line's words (--changed, -L START,END, PATH, -n); an agent
 * reads them in MCP's, the tool's parameter names (changed: true, startLine, path, limit). The words
 * come from the question's own declaration, so a new flag needs no entry here.
 */
import { COMMON_ARGS, type AnyQuery, type Args } from "../queries/define.ts";
import { flagName, positionalWord } from "../queries/arg-words.ts";

/** The value's placeholder after a flag (--repo DIR, -n N): the parameter's name says it. */
const PLACEHOLDER = String.raw`(?: (?:N|REV|DIR|VALUE|DATE|TIME|TOKEN|TEXT|SNAPSHOT|START,END|A,B|:NAME))?`;

/** [what the command line says, what MCP says], longest first so -L :NAME wins over -L. */
function table(args: Args): [string, string][] {
  const rows: [string, string][] = [];
  for (const [name, spec] of Object.entries(args)) {
    // compare's HEAD is git's HEAD in every other sentence.
    if (spec.positional) {
      if (name !== "head") rows.push([positionalWord(name, spec), name]);
      continue;
    }
    if (name === "startLine") rows.push(["-L :NAME", "function"], ["-L", "startLine, endLine"]);
    if (name === "startLine" || name === "endLine") continue;
    const said = spec.type === "boolean" ? `${name}: ${spec.default === true ? "false" : "true"}` : name;
    rows.push([`--${flagName(name, spec)}`, said]);
    if (spec.short) rows.push([`-${spec.short}`, said]);
  }
  return rows.sort((a, b) => b[0].length - a[0].length);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The message in the tool's words; without a question, in the words every tool shares (until, repo). */
export function forAgents(message: string, def?: AnyQuery): string {
  let out = message;
  for (const [cli, mcp] of table(def?.args ?? COMMON_ARGS)) {
    // A flag stands alone (after a space, a bracket or a quote); an upper-case word is not the start of REV:PATH.
    const after = /^[A-Z]/.test(cli) ? String.raw`(?=$|[\s)"'\],.;!?])` : String.raw`(?=$|[\s)"'\],.;:!?])`;
    out = out.replace(new RegExp(String.raw`(^|[\s("'\[,])${escape(cli)}${cli.startsWith("-") ? PLACEHOLDER : ""}${after}`, "g"), (_, lead: string) => `${lead}${mcp}`);
  }
  return out;
}

/**
 * Answers a tool call in this process, about the committed history of a served repository: work-tree
 * questions refused, paths kept inside, `until` the followed branch's head unless given, and the
 * clone's folder (the server's own business) named by the repository's served name in what goes out.
 */
import { LoreError, toLoreError } from "../errors.ts";
import type { Repos } from "../daemon/repos.ts";
import { findQuery } from "../queries/index.ts";
import type { ToolDeps } from "../mcp/call-tool.ts";
import { checkPaths, UNNAMED, type ServeScope } from "./scope.ts";
import { workTreeRefusal } from "./work-tree.ts";

/** Every occurrence of the clone's folder in `text`, as the served name. */
function renamed(text: string, root: string, name: string): string {
  return text.split(root).join(name);
}

export function serveCall(repos: Repos, scope: ServeScope): ToolDeps["call"] {
  return async (name, input) => {
    const def = findQuery(name);
    if (!def) throw new LoreError("UNKNOWN_QUESTION", `lore has no question "${name}".`);
    const refusal = workTreeRefusal(name, input);
    if (refusal) throw refusal;
    if (input.repo === UNNAMED) scope.cloneAt(UNNAMED);
    const clone = scope.cloneAt(input.repo as string);
    checkPaths(def, input, clone.root);
    // Committed history: the file on disk is never the question (the clone's files are the head's anyway).
    const asked = "until" in def.args && (input.until === undefined || input.until === "") ? { ...input, until: "HEAD" } : input;
    let text: string;
    try {
      text = (await repos.answer(name, asked)).text;
    } catch (err) {
      const e = toLoreError(err);
      throw new LoreError(e.code, renamed(e.message, clone.root, clone.repo.name), { cause: e.cause });
    }
    const answer = JSON.parse(renamed(text, JSON.stringify(clone.root).slice(1, -1), clone.repo.name)) as Record<string, unknown>;
    // Where the server keeps its index is nobody's concern but the server's.
    if (name === "status" && answer && typeof answer === "object") delete answer.dbPath;
    return answer;
  };
}

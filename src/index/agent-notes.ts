/** The agents provenance tools name in git notes (git-ai's refs/notes/ai, whogitit's, origin's, Agent Trace records): every refs/notes/* ref read. */
import { createHash } from "node:crypto";
import { catBlobs } from "../git/cat-file.ts";
import { gitText } from "../git/run.ts";
import type { IndexContext } from "./context.ts";
import { agentOfNote } from "./agents.ts";

/** git's arguments for the notes refs. */
export const NOTES_REFS_ARGS = ["for-each-ref", "--format=%(refname)%00%(objectname)", "refs/notes"];

/** Reads the notes again when a notes ref moved since the last read; returns whether one had. */
export async function updateNoteAgents(ix: IndexContext): Promise<boolean> {
  const refs = (await gitText(NOTES_REFS_ARGS, ix.git)).split("\n").filter(Boolean);
  const seen = createHash("sha1").update(refs.join("\n")).digest("hex");
  if (ix.store.meta("agentNotes") === seen) return false;
  const rows: { sha: string; agent: string; signal: string }[] = [];
  for (const line of refs) {
    const ref = line.split("\0")[0]!;
    // Each line: the note's blob, the object it annotates.
    const pairs = (await gitText(["notes", `--ref=${ref}`, "list"], ix.git).catch(() => "")).split("\n").filter(Boolean).map((l) => l.split(" ") as [string, string]);
    const commitOf = new Map<string, string[]>();
    for (const [blob, commit] of pairs) commitOf.set(blob, [...(commitOf.get(blob) ?? []), commit]);
    await catBlobs([...commitOf.keys()], ix.git, (blob, content) => {
      const agent = content && agentOfNote(content.toString("utf8"));
      if (agent) for (const sha of commitOf.get(blob) ?? []) rows.push({ sha, agent, signal: `note ${ref}` });
    });
  }
  ix.store.transaction(() => {
    ix.store.provenance.replaceNoteAgents(rows);
    ix.store.setMeta("agentNotes", seen);
  });
  return true;
}

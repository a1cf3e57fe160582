/** Counts the lines of blobs (git cat-file --batch), once per blob; a binary blob has none. */
import { spawn } from "node:child_process";
import { BASE_ARGS, gitEnv } from "../git/run.ts";
import { LoreError } from "../errors.ts";
import type { IndexContext } from "./context.ts";

const BINARY_PROBE_BYTES = 8000;

/** Lines as git blame counts them: newlines, plus one for a last line without one. */
function countLines(content: Buffer): number | null {
  if (content.subarray(0, BINARY_PROBE_BYTES).includes(0)) return null;
  let n = 0;
  for (let i = content.indexOf(0x0a); i >= 0; i = content.indexOf(0x0a, i + 1)) n++;
  if (content.length > 0 && content[content.length - 1] !== 0x0a) n++;
  return n;
}

function catFileBatch(ix: IndexContext, blobs: string[]): Promise<Map<string, number | null>> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...BASE_ARGS, "cat-file", "--batch"], { cwd: ix.git.cwd, env: gitEnv(ix.git.env), stdio: ["pipe", "pipe", "pipe"] });
    const out = new Map<string, number | null>();
    let buf: Buffer = Buffer.alloc(0);
    let i = 0;
    child.on("error", (e) => reject(new LoreError("GIT_MISSING", `Could not run git: ${e.message}`)));
    child.stdout.on("data", (chunk: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      for (;;) {
        const nl = buf.indexOf(0x0a);
        if (nl < 0) return;
        const header = buf.toString("latin1", 0, nl).split(" ");
        if (header[1] === "missing") {
          buf = buf.subarray(nl + 1);
          i++;
          continue;
        }
        const size = Number(header[2]);
        if (buf.length < nl + 1 + size + 1) return;
        out.set(header[0]!, countLines(buf.subarray(nl + 1, nl + 1 + size)));
        buf = buf.subarray(nl + 1 + size + 1);
        i++;
      }
    });
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new LoreError("GIT_FAILED", `git cat-file failed with status ${code}`))));
    child.stdin.on("error", () => {});
    child.stdin.end(blobs.join("\n") + "\n");
  });
}

/** Line counts for blobs, measured once and cached in the index. */
export async function lineCounts(ix: IndexContext, blobs: string[]): Promise<Map<string, number | null>> {
  const known = ix.store.tree.lineCounts(blobs);
  const missing = [...new Set(blobs.filter((b) => !known.has(b)))];
  if (missing.length > 0) {
    const measured = await catFileBatch(ix, missing);
    ix.store.transaction(() => ix.store.tree.saveLineCounts(measured));
    for (const [b, n] of measured) known.set(b, n);
  }
  return known;
}

/**
 * A run of commits written as one `git fast-import` stream, for tests that build a long history:
 * the same commits TestRepo.commit() makes one by one with two git processes each (same trees,
 * messages, authors, committer and dates), made with three processes in all.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ALICE, type Author, runGit, tempDir } from "./git-repo.ts";

/** One commit of the run: its message and author, and the files it writes (content) or removes (null). */
interface Step {
  message: string;
  author: Author;
  changes: Map<string, string | Uint8Array | null>;
}

/** What a batch offers the test: TestRepo's write, remove and commit, recorded instead of run. */
export class CommitBatch {
  readonly steps: Step[] = [];
  private pending = new Map<string, string | Uint8Array | null>();

  write(path: string, content: string | Uint8Array): this {
    this.pending.set(path, content);
    return this;
  }

  /** Removes a file (not a folder: the stream names files). */
  remove(path: string): this {
    this.pending.set(path, null);
    return this;
  }

  commit(message: string, author: Author = ALICE): this {
    this.steps.push({ message, author, changes: this.pending });
    this.pending = new Map();
    return this;
  }

  /** Changes written or removed after the last commit would be lost: the caller commits them or drops them. */
  get uncommitted(): number {
    return this.pending.size;
  }
}

/**
 * The message as `git commit -m` stores it (its default "whitespace" clean-up): trailing spaces cut,
 * runs of empty lines made one, none at either end, one newline after the last line.
 */
export function cleanMessage(message: string): string {
  const out: string[] = [];
  for (const line of message.split("\n").map((l) => l.replace(/\s+$/, ""))) if (line !== "" || (out.length > 0 && out.at(-1) !== "")) out.push(line);
  while (out.at(-1) === "") out.pop();
  if (out.length === 0) throw new Error("a commit needs a message that is not empty (git commit would abort)");
  return out.join("\n") + "\n";
}

function pathOf(path: string): string {
  // fast-import reads a name to the end of the line unless it starts with a quote.
  if (path.includes("\n") || path.startsWith('"')) throw new Error(`a batch cannot name ${JSON.stringify(path)}; use TestRepo.commit() for it`);
  return path;
}

/**
 * Imports `steps` onto the current branch of the repository in `dir`, on top of `parent` (none for a
 * first commit), the n-th dated `dateOf(n)`; then checks the new HEAD out. Returns each commit's sha.
 */
export function importCommits(dir: string, branch: string, parent: string | undefined, steps: Step[], dateOf: (n: number) => string): string[] {
  if (steps.length === 0) return [];
  // git commit's committer: the repository's configured identity (or GIT_COMMITTER_* in the environment).
  const committer = runGit(dir, ["var", "GIT_COMMITTER_IDENT"]).trim().replace(/ \d+ [+-]\d{4}$/, "");
  const chunks: Buffer[] = [];
  const text = (s: string) => chunks.push(Buffer.from(s, "utf8"));
  const data = (d: string | Uint8Array) => {
    const bytes = typeof d === "string" ? Buffer.from(d, "utf8") : Buffer.from(d);
    text(`data ${bytes.length}\n`);
    chunks.push(bytes);
    text("\n");
  };
  steps.forEach((step, i) => {
    const date = dateOf(i);
    text(`commit refs/heads/${branch}\nmark :${i + 1}\n`);
    text(`author ${step.author.name} <${step.author.email}> ${date}\ncommitter ${committer} ${date}\n`);
    data(cleanMessage(step.message));
    if (i === 0 && parent) text(`from ${parent}\n`);
    for (const [path, content] of step.changes) {
      if (content === null) text(`D ${pathOf(path)}\n`);
      else {
        text(`M 100644 inline ${pathOf(path)}\n`);
        data(content);
      }
    }
  });
  const marks = join(tempDir("lore-marks-"), "marks");
  try {
    runGit(dir, ["fast-import", "--quiet", "--done", `--export-marks=${marks}`], {}, Buffer.concat([...chunks, Buffer.from("done\n")]));
    const shas = new Map(readFileSync(marks, "utf8").trim().split("\n").map((l) => l.split(" ") as [string, string]));
    // The index and work tree follow the branch, as after the last `git commit`.
    runGit(dir, ["reset", "-q", "--hard"]);
    return steps.map((_, i) => shas.get(`:${i + 1}`)!);
  } finally {
    rmSync(join(marks, ".."), { recursive: true, force: true });
  }
}

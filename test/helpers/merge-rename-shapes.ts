/**
 * Small histories where a file is renamed on one branch while another branch, or a later commit,
 * keeps using its old name: criss-cross merges of a rename, a rename against a re-added source or
 * destination, a folder renamed on both sides, a rename beside a rewrite under the old name, a
 * new file under a renamed file's old name, and a folder renamed while a file takes a name in it.
 * Built with the git CLI, each with ticking dates or with every commit in the same second (as
 * scripts without a clock make them: git's walk breaks the ties).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { runGit, TestRepo, tickDate } from "./git-repo.ts";

export interface Shape {
  name: string;
  repo: TestRepo;
  /** Revisions to ask about besides HEAD: branch tips and merges the walk reaches in another order. */
  revs: string[];
}

/** A repository whose commits get dates from one clock: ticking a minute each, or all in one second. */
class Clock {
  private tick = 0;
  readonly repo = new TestRepo();
  constructor(private readonly sameSecond: boolean) {}

  private env(): Record<string, string> {
    if (!this.sameSecond) this.tick++;
    const date = tickDate(this.tick);
    return { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  }

  git(...args: string[]): string {
    return runGit(this.repo.dir, args, this.env());
  }

  /** git, where a stop (a merge with conflicts) is what the shape wants. */
  tryGit(...args: string[]): void {
    try {
      this.git(...args);
    } catch {
      // The conflict is resolved by the next steps.
    }
  }

  write(path: string, ...lines: (string | number)[]): this {
    this.repo.write(path, lines.map(String).join("\n") + "\n");
    return this;
  }

  commit(message: string): void {
    this.repo.git("add", "-A");
    this.git("commit", "-q", "--allow-empty", "-m", message);
  }
}

const ten = (what: string) => Array.from({ length: 10 }, (_, i) => `line ${i} of ${what}`);

/** Two sides rename different files to one name; each side then merges the other keeping its own tree. */
function crissCrossRename(c: Clock, editOther: boolean): void {
  c.write("one", ...ten("one")).write("two", ...ten("two"));
  c.commit("base");
  c.git("branch", "left");
  c.git("checkout", "-q", "-b", "right");
  c.git("mv", "one", "three");
  if (editOther) c.write("two", ...ten("two"), "one more");
  c.commit("right renames one to three");
  c.git("checkout", "-q", "left");
  c.git("mv", "two", "three");
  c.commit("left renames two to three");
  c.git("checkout", "-q", "-b", "left2");
  c.git("merge", "-q", "-s", "ours", "-m", "left takes right", "right");
  c.git("checkout", "-q", "-b", "right2", "right");
  c.git("merge", "-q", "-s", "ours", "-m", "right takes left", "left");
  c.git("checkout", "-q", "left2");
}

/**
 * One side renames a to new_a; the other, later, edits a and adds its own new_a; two merges
 * resolve it differently. git's walk meets the addition first and follows it to a as a copy.
 */
function renameAgainstAdd(c: Clock): void {
  c.write("a", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
  c.commit("add a");
  c.git("checkout", "-q", "-b", "mover");
  c.git("mv", "a", "new_a");
  c.commit("rename a to new_a");
  c.git("checkout", "-q", "-b", "adder", "main");
  c.write("a", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10).write("new_a", 0, 1, 2, 3, 4, 5, 6, 7, "own");
  c.commit("edit a, add another new_a");
  c.git("checkout", "-q", "-b", "merged1", "mover");
  c.tryGit("merge", "-q", "--no-edit", "adder");
  c.repo.write("new_a", c.repo.git("show", ":2:new_a"));
  c.repo.remove("a");
  c.commit("merge adder, keeping the rename");
  c.git("checkout", "-q", "-b", "merged2", "adder");
  c.tryGit("merge", "-q", "--no-edit", "mover");
  c.repo.remove("a");
  c.write("new_a", 0, 1, 2, 3, 4, 5, 6, 7, "mixed");
  c.commit("merge mover, mixing both");
  c.git("checkout", "-q", "merged1");
}

/** One side renames a to b; the other renames a to c and adds a new a (or adds c, renaming a to b). */
function renameRenameAdd(c: Clock, addSource: boolean): void {
  c.write("a", "lots", "of", "words", "in", "here");
  c.commit("add a");
  c.git("checkout", "-q", "-b", "side1");
  c.git("mv", "a", "b");
  if (!addSource) c.write("c", 1, 2, 3, 4, 5, 6, 7);
  c.commit(addSource ? "rename a to b" : "rename a to b, add c");
  c.git("checkout", "-q", "-b", "side2", "main");
  c.git("mv", "a", "c");
  if (addSource) c.write("a", 2, 3, 4, 5, 6, 7);
  c.commit(addSource ? "rename a to c, add a new a" : "rename a to c");
  c.git("checkout", "-q", "-b", "merged", "side1");
  c.git("merge", "-q", "--no-commit", "-s", "ours", "side2");
  if (addSource) {
    c.git("checkout", "side2", "--", "a", "c");
    c.write("a", 1, 2, 3, 4, 5, 6, 7);
  } else c.git("mv", "b", "a");
  c.commit("merge side2, keeping all");
  c.git("checkout", "-q", "-b", "merged2", "side2");
  c.git("merge", "-q", "--no-commit", "-s", "ours", "side1");
  c.git("checkout", "side1", "--", "b");
  c.commit("merge side1, keeping all");
  c.git("checkout", "-q", "merged");
}

/** Both sides rename folder z to y; one also moves e out of it, the other keeps z/e and adds z/f. */
function folderRenamedOnBothSides(c: Clock): void {
  for (const f of ["b", "c", "d", "e"]) c.write(`z/${f}`, `${f} in z`);
  c.commit("add z");
  c.git("branch", "other");
  c.git("checkout", "-q", "-b", "one");
  c.git("mv", "z", "y");
  c.git("mv", "y/e", "e");
  c.commit("rename z to y, e out of it");
  c.git("checkout", "-q", "other");
  c.git("mv", "z", "y");
  mkdirSync(join(c.repo.dir, "z"));
  c.git("mv", "y/e", "z/e");
  c.write("z/f", "f in z");
  c.commit("rename z to y but e, add z/f");
  c.git("checkout", "-q", "one");
  c.tryGit("-c", "merge.directoryRenames=true", "merge", "-q", "--no-edit", "other");
}

/** One side renames a to b; the other renames a to b too and writes a wholly new a; merged both ways. */
function renameBesideRewrite(c: Clock): void {
  c.write("a", 1, 2, 3, 4, 5);
  c.commit("add a");
  c.git("checkout", "-q", "-b", "plain");
  c.git("mv", "a", "b");
  c.commit("rename a to b");
  c.git("checkout", "-q", "-b", "rewrite", "main");
  c.git("mv", "a", "b");
  c.write("a", "something else");
  c.commit("rename a to b, new a");
  c.git("checkout", "-q", "-b", "merged", "plain");
  c.tryGit("merge", "-q", "--no-edit", "rewrite");
  c.repo.git("add", "-A");
  c.tryGit("commit", "-q", "--no-edit");
  c.git("checkout", "-q", "-b", "merged2", "rewrite");
  c.tryGit("merge", "-q", "--no-edit", "plain");
  c.repo.git("add", "-A");
  c.tryGit("commit", "-q", "--no-edit");
}

/** Both branches rename sequence to values; one then adds an unrelated sequence; picked onto the other. */
function newFileUnderRenamedName(c: Clock): void {
  c.write("sequence", 3, 4, 5, 6, 7, 8);
  c.commit("add sequence");
  c.git("checkout", "-q", "-b", "topic");
  c.write("sequence", 3, 4, 5, 6, 7, 8, 9, 10);
  c.git("add", "sequence");
  c.git("mv", "sequence", "values");
  c.commit("rename sequence to values, longer");
  c.write("sequence", "A", "B", "C", "D", "E", "F", "G");
  c.commit("a new sequence");
  c.git("checkout", "-q", "main");
  c.write("sequence", 1, 2, 3, 4, 5, 6, 7, 8);
  c.git("add", "sequence");
  c.git("mv", "sequence", "values");
  c.commit("rename sequence to values, earlier");
  c.git("cherry-pick", "main..topic");
}

/**
 * One side renames folder dir to moved; the other replaces dir/sub, a folder, with a file of that
 * name; merged both ways keeping both. git's pathspec dir/sub also matches the folder's files.
 */
function folderGivesWayToFile(c: Clock): void {
  c.write("dir/sub/file", ...ten("file")).write("dir/keep", ...ten("keep"));
  c.commit("add folder dir/sub");
  c.git("checkout", "-q", "-b", "mover");
  c.git("mv", "dir", "moved");
  c.commit("rename dir to moved");
  c.git("checkout", "-q", "-b", "filer", "main");
  c.git("rm", "-q", "-r", "dir/sub");
  c.write("dir/sub", "a file now");
  c.commit("replace folder dir/sub with a file");
  c.git("checkout", "-q", "-b", "merged", "mover");
  c.git("merge", "-q", "--no-commit", "-s", "ours", "filer");
  c.git("checkout", "filer", "--", "dir/sub");
  c.commit("merge filer, keeping both");
  c.git("checkout", "-q", "-b", "merged2", "filer");
  c.git("merge", "-q", "--no-commit", "-s", "ours", "mover");
  c.git("checkout", "mover", "--", "moved");
  c.commit("merge mover, keeping both");
  c.git("checkout", "-q", "merged");
}

const BUILDERS: [string, (c: Clock) => void][] = [
  ["criss-cross rename", (c) => crissCrossRename(c, false)],
  ["criss-cross rename with an edit", (c) => crissCrossRename(c, true)],
  ["rename against an added destination, merged twice", renameAgainstAdd],
  ["rename/rename with a re-added source", (c) => renameRenameAdd(c, true)],
  ["rename/rename with an added destination", (c) => renameRenameAdd(c, false)],
  ["folder renamed on both sides", folderRenamedOnBothSides],
  ["rename beside a rewrite of the old name", renameBesideRewrite],
  ["new file under a renamed file's old name", newFileUnderRenamedName],
  ["folder renamed on one side, replaced by a file of its name on the other", folderGivesWayToFile],
];

/** Every shape, built twice: dates ticking, and all commits in one second. */
export function mergeRenameShapes(): Shape[] {
  return BUILDERS.flatMap(([name, build]) =>
    [false, true].map((sameSecond) => {
      const c = new Clock(sameSecond);
      build(c);
      const revs = c.repo.git("for-each-ref", "--format=%(refname:short)", "refs/heads").trim().split("\n").filter(Boolean);
      return { name: `${name}${sameSecond ? ", one second" : ""}`, repo: c.repo, revs };
    }),
  );
}

/**
 * A small seeded history of what indexes get wrong, built with the git CLI: renames whose pairing
 * depends on looking at one file or the whole commit, merges that resolved a conflict by writing
 * lines of their own, merges that changed a file neither side touched, files added once, names
 * used again after a rename.
 */
import { ALICE, BOB, CAROL, TestRepo } from "./git-repo.ts";

/** mulberry32: the same numbers for the same seed on every engine. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface TrickyHistory {
  repo: TestRepo;
  /** What each kind of step made, for the test to say it holds them. */
  made: { ambiguousRenames: number; conflictMerges: number; evilMerges: number; renames: number; copies: number; swaps: number; readds: number; mergedRenames: number; shuffles: number };
}

/** Builds the history in a new repository: `steps` steps of the kinds above, chosen by `seed`. */
export function trickyHistory(seed: number, steps = 24): TrickyHistory {
  const rnd = random(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const r = new TestRepo();
  const files = new Map<string, string[]>();
  let serial = 0;
  const text = (name: string, n: number) => Array.from({ length: n }, (_, i) => `${name} line ${i + 1} #${serial++}`);
  const write = (path: string, body: string[]) => {
    files.set(path, body);
    r.write(path, body.join("\n") + "\n");
  };
  const remove = (path: string) => {
    files.delete(path);
    r.remove(path);
  };
  const pick = () => [...files.keys()].sort()[int(files.size)]!;
  const fresh = (dir: string) => `${dir}f${serial++}.txt`;
  // Each commit by one of three people, so sums per person tell who got which lines.
  const commit = (message: string) => r.commit(message, [ALICE, BOB, CAROL][int(3)]);
  const made = { ambiguousRenames: 0, conflictMerges: 0, evilMerges: 0, renames: 0, copies: 0, swaps: 0, readds: 0, mergedRenames: 0, shuffles: 0 };

  for (let i = 0; i < 6; i++) write(fresh(i % 2 ? "subdir/" : ""), text(`base${i}`, 6 + int(6)));
  // Files whose line count is easy to get wrong: no newline at the end, empty, CRLF, a lone newline.
  r.write("no-newline.txt", "one\ntwo\nthree").write("empty.txt", "").write("crlf.txt", "a\r\nb\r\n").write("newline.txt", "\n");
  commit("base");
  for (let step = 0; step < steps; step++) {
    const kind = step < 5 ? [0, 1, 2, 3, 11][step]! : int(15);
    if (kind === 0) {
      // git blame pairs the similar new file with the removed one; the whole commit pairs the removed one with its exact copy.
      const from = pick();
      const body = files.get(from)!;
      remove(from);
      write(fresh("subdir/"), [...body]);
      write(fresh(""), [...body, ...text("extra", 2)]);
      commit(`move ${from} twice`);
      made.ambiguousRenames++;
    } else if (kind === 1) {
      // Both sides change the same lines; the merge writes its own.
      const f = pick();
      const body = files.get(f)!;
      const at = Math.min(1, body.length - 1);
      r.git("checkout", "-q", "-b", `side${step}`);
      write(f, body.map((l, k) => (k === at || k === at + 1 ? `side ${l}` : l)));
      commit(`side changes ${f}`);
      r.git("checkout", "-q", "main");
      write(f, body.map((l, k) => (k === at || k === at + 1 ? `main ${l}` : l)));
      commit(`main changes ${f}`);
      try {
        r.git("merge", "-q", "--no-ff", "--no-commit", `side${step}`);
      } catch {
        // The conflict is the point.
      }
      write(f, body.map((l, k) => (k === at || k === at + 1 ? `resolved ${l}` : l)));
      commit(`merge side${step}, resolving ${f}`);
      made.conflictMerges++;
    } else if (kind === 2) {
      // A merge that changes a file neither side touched (added once, long ago).
      const f = pick();
      r.git("checkout", "-q", "-b", `topic${step}`);
      write(fresh(""), text(`topic${step}`, 5));
      commit(`topic ${step}`);
      r.git("checkout", "-q", "main");
      write(fresh("subdir/"), text(`main${step}`, 5));
      commit(`main ${step}`);
      r.git("merge", "-q", "--no-ff", "--no-commit", `topic${step}`);
      const body = files.get(f)!;
      write(f, [...body.slice(0, 2), `evil merge line #${serial++}`, ...body.slice(2)]);
      commit(`merge topic${step}, touching ${f}`);
      made.evilMerges++;
    } else if (kind === 3) {
      // A rename with an edit, alone in its commit.
      const from = pick();
      const body = files.get(from)!;
      remove(from);
      write(fresh(from.startsWith("subdir/") ? "" : "subdir/"), [...body.slice(0, -1), ...text("renamed", 1)]);
      commit(`rename ${from}`);
      made.renames++;
    } else if (kind === 7) {
      // A copy with an edit, the source kept and edited too.
      const from = pick();
      const body = files.get(from)!;
      write(fresh(""), [...body, ...text("copied", 1)]);
      write(from, [...body.slice(1)]);
      commit(`copy ${from}`);
      made.copies++;
    } else if (kind === 8 && files.size >= 2) {
      // Two files trade names in one commit.
      const [a, b] = [...files.keys()].sort().slice(0, 2) as [string, string];
      const [x, y] = [files.get(a)!, files.get(b)!];
      write(a, y);
      write(b, x);
      commit(`swap ${a} and ${b}`);
      made.swaps++;
    } else if (kind === 9) {
      // A file deleted or renamed away, then a new one at the same path (git log --follow of the
      // new one shows the rename as the old one's deletion).
      const f = pick();
      const body = files.get(f)!;
      remove(f);
      if (int(2)) {
        write(fresh("subdir/"), [...body]);
        commit(`rename ${f} away`);
      } else commit(`delete ${f}`);
      write(f, text("again", 3 + int(4)));
      commit(`add ${f} again`);
      made.readds++;
    } else if (kind === 10) {
      // A side branch renames a file that main edits; the merge keeps both.
      const f = pick();
      const body = files.get(f)!;
      const to = fresh("subdir/");
      r.git("checkout", "-q", "-b", `mv${step}`);
      remove(f);
      write(to, [...body]);
      commit(`side renames ${f}`);
      r.git("checkout", "-q", "main");
      write(f, [...body.slice(0, -1), `main edit #${serial++}`]);
      commit(`main edits ${f}`);
      try {
        r.git("merge", "-q", "--no-ff", "--no-commit", `mv${step}`);
      } catch {
        // A rename/modify merge may stop; the resolution below is the merge.
      }
      remove(f);
      write(to, [...body.slice(0, -1), `main edit #${serial - 1}`]);
      commit(`merge mv${step}`);
      made.mergedRenames++;
    } else if (kind === 11) {
      // Two files with lines in common both go: the whole commit pairs one exactly and the other
      // with the second best, where git following the other alone takes the best.
      const shared = text(`shared${step}`, 8);
      const [x1, x2] = [fresh(""), fresh("")];
      write(x1, [...shared, ...text("a", 2)]);
      commit(`add ${x1}`);
      write(x2, [...shared, ...text("b", 2)]);
      commit(`add ${x2}`);
      const a = files.get(x1)!;
      remove(x1);
      remove(x2);
      write(fresh("subdir/"), [...a]);
      write(fresh(""), [...shared, a[8]!, ...text("c", 1)]);
      commit(`shuffle ${x1} and ${x2}`);
      made.shuffles++;
    } else if (kind === 12) {
      // A merge that brings a file of its own, edited later by a plain commit.
      r.git("checkout", "-q", "-b", `own${step}`);
      write(fresh("subdir/"), text(`own${step}`, 3));
      commit(`own ${step}`);
      r.git("checkout", "-q", "main");
      r.git("merge", "-q", "--no-ff", "--no-commit", `own${step}`);
      const born = fresh("");
      write(born, text(`born in merge ${step}`, 4));
      commit(`merge own${step}, adding ${born}`);
      write(born, [...files.get(born)!, ...text("later", 1)]);
      commit(`edit ${born}`);
    } else if (kind === 13) {
      // The mode alone changes: no line moves.
      const f = pick();
      r.git("update-index", "--chmod=+x", f);
      r.git("commit", "-q", "-m", `chmod ${f}`);
      r.git("checkout", "-q", "--", f);
    } else if (kind === 14) {
      // Criss-cross: two branches merge each other, then main merges both.
      const f = pick();
      const body = files.get(f)!;
      r.git("checkout", "-q", "-b", `x${step}`);
      write(f, [`x top #${serial++}`, ...body]);
      commit(`x edits ${f}`);
      r.git("checkout", "-q", "main");
      write(fresh(""), text(`y${step}`, 3));
      commit(`y ${step}`);
      r.git("checkout", "-q", `x${step}`);
      r.git("merge", "-q", "--no-ff", "--no-commit", "main");
      commit(`x merges main`);
      r.git("checkout", "-q", "main");
      r.git("merge", "-q", "--no-ff", "--no-commit", `x${step}`);
      commit(`main merges x${step}`);
      files.set(f, [`x top #${serial - 1}`, ...body].filter(Boolean));
      files.set(f, r.git("show", `HEAD:${f}`).replace(/\n$/, "").split("\n"));
    } else if (kind === 4) {
      write(fresh(int(2) ? "subdir/" : ""), text(`new${step}`, 4 + int(8)));
      commit(`add a file at step ${step}`);
    } else {
      const f = pick();
      const body = [...files.get(f)!];
      body[int(body.length)] = `edited at step ${step} #${serial++}`;
      write(f, body);
      commit(`edit ${f}`);
    }
  }
  return { repo: r, made };
}

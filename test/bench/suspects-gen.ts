/**
 * Generated histories with planted bug-introducing commits, for the suspects benchmark: in each, fixes
 * whose messages name the commit that caused the bug, of five kinds — a plain rewrite of the bug's
 * lines; a guard the bug removed and the fix adds back; a bug under a later mass reformat; and a fix
 * that rewrites five old lines and one recent line, the bug being the recent one or the old one.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export const KINDS = ["plain", "guard", "reformat", "recent-bug", "old-bug"] as const;

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const run = (dir: string, args: string[], env: Record<string, string> = {}) => {
  const r = spawnSync("git", args, { cwd: dir, encoding: "utf8", env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
};

/** Builds the repository in `dir` with `cases` planted bugs; returns the fix commits' shas. */
export function generate(dir: string, seed: number, cases: number): { fix: string; kind: string }[] {
  const rand = rng(seed);
  const files = new Map<string, string[]>();
  const names = ["Ann", "Bo", "Cy", "Di"];
  let t = 1_600_000_000;
  const write = () => {
    for (const [p, lines] of files) {
      mkdirSync(dirname(`${dir}/${p}`), { recursive: true });
      writeFileSync(`${dir}/${p}`, lines.join("\n") + "\n");
    }
  };
  const commit = (msg: string, who = names[Math.floor(rand() * names.length)]!) => {
    write();
    t += 3600;
    run(dir, ["add", "-A"]);
    run(dir, ["commit", "-q", "-m", msg], { GIT_AUTHOR_NAME: who, GIT_AUTHOR_EMAIL: `${who}@x`, GIT_COMMITTER_NAME: who, GIT_COMMITTER_EMAIL: `${who}@x`, GIT_AUTHOR_DATE: `${t} +0000`, GIT_COMMITTER_DATE: `${t} +0000` });
    return run(dir, ["rev-parse", "HEAD"]);
  };
  mkdirSync(dir, { recursive: true });
  run(dir, ["init", "-q", "-b", "main"]);
  for (let i = 0; i < cases; i++) files.set(`src/m${i}.js`, Array.from({ length: 30 }, (_, k) => `  const v${k} = compute(${k}, ${i});`));
  for (let i = 0; i < 36; i++) files.set(`lib/filler${i}.js`, Array.from({ length: 10 }, (_, k) => `  const f${k} = 'x${k}';`));
  commit("Initial import", "Ann");
  const plan = Array.from({ length: cases }, (_, i) => ({ i, kind: KINDS[i % KINDS.length]!, bug: "", at: 5 + Math.floor(rand() * 15) }));
  const f = (i: number) => files.get(`src/m${i}.js`)!;
  // Before the release: guards that will be removed, and old changes to five lines.
  for (const p of plan) {
    if (p.kind === "guard") f(p.i).splice(p.at, 0, `  if (input${p.i} == null) return fallback(${p.i});`);
    if (p.kind === "guard" || p.kind === "old-bug" || p.kind === "recent-bug") {
      for (let k = 0; k < 5; k++) f(p.i)[p.at + 1 + k] = `  const v${p.at + 1 + k} = compute(${p.at + 1 + k}, ${p.i}) * 2;`;
      const sha = commit(`Rework m${p.i} ${p.kind === "guard" ? "and guard its input" : "computations"}`);
      if (p.kind === "old-bug") p.bug = sha;
    }
  }
  for (let n = 0; n < cases; n++) {
    const i = Math.floor(rand() * cases);
    f(i)[25 + Math.floor(rand() * 4)] += " // noted";
    commit(`Note m${i}`);
  }
  run(dir, ["tag", "v1.0"]);
  // After the release: the bugs (and the innocent recent changes).
  for (const p of plan) {
    const lines = f(p.i);
    if (p.kind === "guard") lines.splice(p.at, 1);
    else if (p.kind === "plain" || p.kind === "reformat") (lines[p.at] = `  const v${p.at} = compute(${p.at} + 1, ${p.i});`), (lines[p.at + 1] = `  const v${p.at + 1} = compute(${p.at}, ${p.i});`);
    else lines[p.at + 6] = `  const v${p.at + 6} = compute(${p.at + 6}, ${p.i}) - 1;`;
    const sha = commit(p.kind === "old-bug" ? `Adjust m${p.i}` : `Change m${p.i} handling`);
    if (p.kind !== "old-bug") p.bug = sha;
  }
  // A mass reformat over the reformat cases' files and the fillers: double quotes to single, a semicolon style.
  for (const p of plan) if (p.kind === "reformat") files.set(`src/m${p.i}.js`, f(p.i).map((l) => l.replace(/;$/, " ;")));
  for (let i = 0; i < 36; i++) files.set(`lib/filler${i}.js`, files.get(`lib/filler${i}.js`)!.map((l) => l.replace(/'/g, '"')));
  commit("Apply the new code style everywhere", "Di");
  const fixes: { fix: string; kind: string }[] = [];
  for (const p of plan) {
    const lines = f(p.i);
    if (p.kind === "guard") lines.splice(p.at, 0, `  if (input${p.i} == null) return fallback(${p.i});`);
    else if (p.kind === "plain" || p.kind === "reformat") lines[p.at] = `  const v${p.at} = compute(${p.at}, ${p.i}) ;`.replace(" ;", p.kind === "reformat" ? " ;" : ";");
    else for (let k = 1; k <= 6; k++) lines[p.at + k] = `  const v${p.at + k} = safeCompute(${p.at + k}, ${p.i});`;
    const short = p.bug.slice(0, 10);
    const say = [`introduced in ${short}`, `broken by ${short}`, `regression from ${short}`, `Fixes: ${short}`][Math.floor(rand() * 4)];
    fixes.push({ fix: commit(`Fix m${p.i}\n\nThis was ${say}.`), kind: p.kind });
  }
  return fixes;
}

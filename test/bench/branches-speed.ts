/**
 * How long lore branches takes over 1,000 branches (`npm run bench:branches`): a generated history of
 * 3,000 commits on main and 1,000 branches off it — a third merged, a third squash-merged, a third
 * open — built with git fast-import; the first answer (cold: patch-ids computed) and warm ones.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { tempDir } from "../helpers/git-repo.ts";
import { answer } from "../../src/queries/answer.ts";

const MAIN = 3000;
const BRANCHES = Number(process.env.BRANCHES ?? 1000);
const work = tempDir("lore-bench-branches-");
process.env.LORE_HOME = tempDir("lore-bench-home-");

function gen(): string {
  const out: string[] = [];
  let mark = 0;
  let t = 1_700_000_000;
  const blob = (text: string) => `data ${Buffer.byteLength(text)}\n${text}`;
  const commit = (ref: string, msg: string, from: number | undefined, files: [string, string][], merge?: number) => {
    const m = ++mark;
    t += 60;
    let c = `commit ${ref}\nmark :${m}\nauthor A <a@x> ${t} +0000\ncommitter A <a@x> ${t} +0000\n${blob(msg)}${from ? `from :${from}\n` : ""}${merge ? `merge :${merge}\n` : ""}`;
    for (const [p, text] of files) c += `M 100644 inline ${p}\n${blob(text)}`;
    out.push(c);
    return m;
  };
  // Each branch forks off main at a point, and is merged, squashed or left open some commits later.
  const forks = new Map<number, number[]>();
  for (let b = 0; b < BRANCHES; b++) forks.set(Math.floor((b * (MAIN - 200)) / BRANCHES) + 1, [...(forks.get(Math.floor((b * (MAIN - 200)) / BRANCHES) + 1) ?? []), b]);
  const due = new Map<number, { b: number; tip: number; kind: number }[]>();
  let head = 0;
  for (let i = 1; i <= MAIN; i++) {
    head = commit("refs/heads/main", `main ${i}`, head || undefined, [[`src/f${i % 40}.txt`, `main ${i}\n`]]);
    for (const b of forks.get(i) ?? []) {
      let tip = head;
      const n = 1 + (b % 3);
      for (let k = 1; k <= n; k++) tip = commit(`refs/heads/${b % 10 === 0 ? "claude/" : "topic/"}b${b}`, `b${b} ${k}`, tip, [[`b/${b}.txt`, `b${b} step ${k}\n`]]);
      const at = i + 5 + (b % 50);
      due.set(at, [...(due.get(at) ?? []), { b, tip, kind: b % 3 }]);
    }
    for (const d of due.get(i) ?? []) {
      if (d.kind === 0) head = commit("refs/heads/main", `Merge b${d.b}`, head, [], d.tip);
      else if (d.kind === 1) head = commit("refs/heads/main", `b${d.b} (#${d.b})`, head, [[`b/${d.b}.txt`, `b${d.b} step ${1 + (d.b % 3)}\n`]]);
    }
  }
  return out.join("\n");
}

spawnSync("git", ["init", "-q", "-b", "main", work]);
const r = spawnSync("git", ["fast-import", "--quiet"], { cwd: work, input: gen(), maxBuffer: 1 << 28 });
if (r.status !== 0) throw new Error(r.stderr.toString());
spawnSync("git", ["checkout", "-q", "-f", "main"], { cwd: work });

const times: number[] = [];
let listed = 0;
for (let i = 0; i < 4; i++) {
  const t = performance.now();
  const a = (await answer("branches", { repo: work }, { cwd: work })) as { branches: { merged?: string }[] };
  times.push(performance.now() - t);
  listed = a.branches.length;
  if (i === 0) console.log(`merged: ${["merge", "rebase", "squash"].map((k) => `${k} ${a.branches.filter((b) => b.merged === k).length}`).join(", ")}, open ${a.branches.filter((b) => !b.merged).length}`);
}
const warm = times.slice(1).sort((a, b) => a - b)[1]!;
console.log(`| branches listed | commits | cold | warm (median of 3) |\n|---|---|---|---|\n| ${listed} | ${MAIN} on main | ${(times[0]! / 1000).toFixed(2)} s | ${(warm / 1000).toFixed(2)} s |`);
rmSync(work, { recursive: true, force: true });
process.exit(0);

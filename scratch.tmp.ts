import { loreCaller, drawTasks } from "./test/bench/tasks-run.ts";
import { KINDS, warm } from "./test/bench/tasks.ts";
import { readRepo, sh } from "./test/bench/tasks-repo.ts";
process.env.LORE_HOME = "/tmp/whole/home2";
const dir = process.argv[2]!;
const want = process.argv.slice(3);
await warm(dir);
const f = readRepo("x", dir, 24);
const tasks = drawTasks(f, KINDS.filter((k) => want.some((w) => k.name.includes(w))), 1, 24);
for (const t of tasks) {
  const k = KINDS.find((k) => k.name === t.kind)!;
  const texts: string[] = [];
  await k.lore(t, loreCaller(dir, { tokens: 0, calls: 0, ms: 0 }, [], texts));
  const gits: string[] = [];
  k.git(t, (cmd) => { const o = sh(dir, cmd); gits.push(`$ ${cmd}\n${o}`); return o; });
  console.log(`== ${t.kind}: ${t.what}\n-- lore:\n${texts.join("\n").slice(0, 1500)}\n-- git:\n${gits.join("\n").slice(0, 800)}\n`);
}

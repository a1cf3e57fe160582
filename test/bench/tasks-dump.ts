/**
 * Prints, for each drawn task of the task benchmark, what git printed and what lore's model copy was
 * (a tool to see where tokens go): bun test/bench/tasks-dump.ts REPO_DIR [NAME] [--kind SUBSTR]
 */
import { countTokens } from "@anthropic-ai/tokenizer";
import { KINDS, warm } from "./tasks.ts";
import { drawTasks, loreCaller, type Way } from "./tasks-run.ts";
import { readRepo, sh } from "./tasks-repo.ts";

const args = process.argv.slice(2);
const dir = args[0]!;
const name = args[1] && !args[1].startsWith("--") ? args[1] : "repo";
const only = args.includes("--kind") ? args[args.indexOf("--kind") + 1]! : "";
await warm(dir);
const facts = readRepo(name, dir, 24);
for (const t of drawTasks(facts, KINDS, 3, 24)) {
  if (only && !t.kind.includes(only)) continue;
  const kind = KINDS.find((k) => k.name === t.kind)!;
  console.log(`\n=== ${t.kind}: ${t.what}`);
  kind.git(t, (cmd) => {
    const out = sh(facts.dir, cmd);
    console.log(`--- git (${countTokens(out)} tok): ${cmd}\n${out.length > 1500 ? out.slice(0, 1500) + "…" : out}`);
    return out;
  });
  const way: Way = { tokens: 0, calls: 0, ms: 0 };
  const texts: string[] = [];
  await kind.lore(t, loreCaller(facts.dir, way, [], texts));
  for (const s of texts) console.log(`--- lore (${countTokens(s)} tok)\n${s.length > 1500 ? s.slice(0, 1500) + "…" : s}`);
}

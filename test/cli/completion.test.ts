/** Shell completions come from the registry and work in the shells themselves: bash through COMP_WORDS, zsh through a pseudo-terminal, fish through complete -C. */
import { afterAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { completionScript } from "../../src/cli/completion.ts";
import { QUERIES } from "../../src/queries/index.ts";
import { tempDir } from "../helpers/git-repo.ts";
import { cli } from "../helpers/lore.ts";
import { systemTool } from "../helpers/system-tool.ts";

const dir = tempDir("lore-completion-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// A folder to complete paths in: one file and one folder.
const work = join(dir, "work");
mkdirSync(join(work, "src"), { recursive: true });
writeFileSync(join(work, "README.md"), "x\n");

const zsh = systemTool("zsh", "zsh completion");
const fish = systemTool("fish", "fish completion");

function sh(cmd: string[], input?: string) {
  const r = spawnSync(cmd[0]!, cmd.slice(1), { cwd: work, input, encoding: "utf8", timeout: 30_000, env: { ...process.env, HOME: dir } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** What bash offers for the words (the last one being completed), as its completion function fills COMPREPLY. */
function bashComplete(script: string, words: string[]): string[] {
  const file = join(dir, "lore.bash");
  writeFileSync(file, script);
  const quoted = words.map((w) => `'${w}'`).join(" ");
  const r = sh(["bash", "-c", `source '${file}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _lore; printf '%s\\n' "\${COMPREPLY[@]}"`]);
  expect(r.stderr).toBe("");
  return r.stdout.split("\n").filter(Boolean);
}

test("lore completion bash prints the script the registry generates, and bash registers it for lore", () => {
  const printed = cli(work, ["completion", "bash"]);
  expect(printed.code).toBe(0);
  expect(printed.stdout).toBe(completionScript("bash"));
  const file = join(dir, "printed.bash");
  writeFileSync(file, printed.stdout);
  const r = sh(["bash", "-c", `source '${file}' && complete -p lore`]);
  expect(r.stdout.trim()).toBe("complete -F _lore lore");
});

test("bash completes lore bl<TAB> to blame, every question's name, its flags, and paths where the question takes one", () => {
  const script = completionScript("bash");
  expect(bashComplete(script, ["lore", "bl"])).toEqual(["blame"]);
  const all = bashComplete(script, ["lore", ""]);
  for (const q of QUERIES) expect(all).toContain(q.name);
  expect(all).toContain("completion");
  expect(bashComplete(script, ["lore", "blame", "--no-"]).sort()).toEqual(["--no-daemon", "--no-ignore-revs"]);
  expect(bashComplete(script, ["lore", "history", "READ"])).toEqual(["README.md"]);
  // Flags before the question, as with git -C, do not hide it.
  expect(bashComplete(script, ["lore", "--repo", ".", "hist"])).toEqual(["history"]);
  expect(bashComplete(script, ["lore", "--repo", "s"])).toEqual(["src"]);
  // show takes a revision, not a path; daemon and completion take fixed words.
  expect(bashComplete(script, ["lore", "status", "READ"])).toEqual([]);
  expect(bashComplete(script, ["lore", "daemon", "st"]).sort()).toEqual(["start", "status", "stop"]);
  expect(bashComplete(script, ["lore", "completion", "z"])).toEqual(["zsh"]);
});

test.skipIf(!fish)("fish completes lore bl to blame, with its summary, and blame's flags and paths", () => {
  const file = join(dir, "lore.fish");
  writeFileSync(file, completionScript("fish"));
  const ask = (line: string) => sh([fish!, "--no-config", "-c", `source '${file}'; complete -C '${line}'`]).stdout.split("\n").filter(Boolean);
  expect(ask("lore bl")).toEqual([`blame\t${QUERIES.find((q) => q.name === "blame")!.summary}`]);
  expect(ask("lore blame --no-").map((l) => l.split("\t")[0]).sort()).toEqual(["--no-daemon", "--no-ignore-revs"]);
  expect(ask("lore blame READ").map((l) => l.split("\t")[0])).toEqual(["README.md"]);
});

/** Types `line` and a TAB into an interactive zsh with the completion on its fpath; what the completion system offered. */
function zshComplete(line: string): string[] {
  const fpath = join(dir, "zfunc");
  mkdirSync(fpath, { recursive: true });
  writeFileSync(join(fpath, "_lore"), completionScript("zsh"));
  // compadd is wrapped to print each match it is given between << >>; zsh needs a terminal for completion: zpty gives it one.
  const driver = `
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PROMPT=''; fpath=(${fpath} \\$fpath); autoload -U compinit; compinit -u -D; lore() { : }"
zpty -w z "compadd () { builtin compadd -O __hits \\"\\$@\\"; local h; for h in \\$__hits; do print -n -- \\"<<\\$h>>\\" >/dev/tty; done; builtin compadd \\"\\$@\\" }"
zpty -w z "bindkey '^I' complete-word; print READY"
zpty -r z line '*READY*'; zpty -r z line '*READY*'
zpty -wn z $'${line}\\t'
out=""
for i in {1..150}; do
  if zpty -rt z chunk 2>/dev/null; then out+=$chunk; else [[ $out == *'>>'* ]] && break; sleep 0.1; fi
done
print -r -- "$out"
zpty -d z`;
  const r = sh([zsh!, "-f", "-c", driver]);
  return [...new Set([...r.stdout.matchAll(/<<([^>]*)>>/g)].map((m) => m[1]!))];
}

test.skipIf(!zsh)("zsh completes lore bl<TAB> to blame and blame --no-<TAB> to its switches", () => {
  expect(zsh && sh([zsh, "-n"], completionScript("zsh")).code).toBe(0);
  expect(zshComplete("lore bl")).toEqual(["blame"]);
  expect(zshComplete("lore blame --no-").sort()).toEqual(["--no-daemon", "--no-ignore-revs"]);
}, 60_000);

test("lore completion tcsh says which shells it writes for, as a usage error", () => {
  const r = cli(work, ["completion", "tcsh", "--json"]);
  expect(r.code).toBe(2);
  expect(r.json.error.code).toBe("BAD_ARGUMENT");
  expect(r.stderr).toContain("bash, zsh, fish");
  expect(cli(work, ["completion"]).code).toBe(2);
});

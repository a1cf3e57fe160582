/** What test/docs/cloud.test.ts reads from docs/cloud.md and runs it with: its marked blocks, a workflow's steps, a storage server, a `lore` on the PATH. */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT } from "../../build/build-info.ts";
import { loreArgv } from "../helpers/lore-argv.ts";

const doc = readFileSync(join(ROOT, "docs", "cloud.md"), "utf8");
const readme = readFileSync(join(ROOT, "README.md"), "utf8");

/** The fenced block after `<!-- cloud-test: NAME -->`. */
export function block(name: string): string {
  const at = doc.indexOf(`<!-- cloud-test: ${name} -->`);
  if (at < 0) throw new Error(`docs/cloud.md has no <!-- cloud-test: ${name} --> block`);
  return /```[a-z]*\n([\s\S]*?)```/.exec(doc.slice(at))![1]!;
}

/** The README's install commands: a recipe installs lore with one of them. */
export const INSTALLS = /## Install\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)![1]!.trim().split("\n");

/** A recipe's shell with its install line (which must be one of the README's) replaced by nothing: the test's `lore` is on the PATH already. */
export function withoutInstall(shell: string): { shell: string; installs: number } {
  let installs = 0;
  const lines = shell.split("\n").map((line) => {
    const bare = line.trim();
    if (bare.startsWith("curl -fsSL https://github.com/lore-dev/lore") || bare.startsWith("npm install -g")) {
      if (!INSTALLS.includes(bare)) throw new Error(`an install line that is not the README's: ${bare}`);
      installs++;
      return ": installed";
    }
    return line;
  });
  return { shell: lines.join("\n"), installs };
}

export interface Step {
  uses?: string;
  run?: string;
  env: Record<string, string>;
  with: Record<string, string>;
}

/** The steps of a workflow's (only) job: enough YAML for the docs' own workflows, which are written plainly. */
export function workflowSteps(yaml: string): Step[] {
  const lines = yaml.split("\n");
  const start = lines.findIndex((l) => /^\s*steps:\s*$/.test(l));
  const steps: Step[] = [];
  let step: Step | undefined;
  let stepIndent = -1;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const indent = line.length - line.trimStart().length;
    const item = /^(\s*)- (.*)$/.exec(line);
    if (item && (stepIndent < 0 || indent === stepIndent)) {
      stepIndent = indent;
      step = { env: {}, with: {} };
      steps.push(step);
      lines[i] = " ".repeat(indent + 2) + item[2];
      i--;
      continue;
    }
    if (indent <= stepIndent) break;
    const [, key, value] = /^\s*([\w-]+):\s*(.*)$/.exec(line)!;
    const body: string[] = [];
    while (i + 1 < lines.length && (lines[i + 1]!.trim() === "" || lines[i + 1]!.length - lines[i + 1]!.trimStart().length > indent)) body.push(lines[++i]!);
    const inner = Math.min(...body.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
    if (key === "run") step!.run = value === "|" ? body.map((l) => l.slice(inner)).join("\n").trim() : value;
    else if (key === "uses") step!.uses = value;
    else if (key === "env" || key === "with") for (const l of body.filter((b) => b.trim())) step![key][l.trim().split(":")[0]!] = l.trim().slice(l.trim().indexOf(":") + 1).trim();
  }
  return steps;
}

/** `${{ … }}` of a workflow, as GitHub would fill it here. */
export function expression(value: string, context: Record<string, string>): string {
  return value.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => {
    if (!(name in context)) throw new Error(`the test does not fill \${{ ${name} }}`);
    return context[name]!;
  });
}

/** A folder holding `lore`: the tests' lore (helpers/lore-argv.ts), what the install would have put on the PATH. */
export function loreOnPath(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "lore"), `#!/bin/sh\nexec ${loreArgv().map((a) => JSON.stringify(a)).join(" ")} "$@"\n`);
  chmodSync(join(dir, "lore"), 0o755);
  return dir;
}

/** A PATH with lore's folder, git's, sh and curl, and nothing else (so `lore setup` finds no agent of this machine). */
export function plainPath(loreDir: string): string {
  const gitDir = dirname(spawnSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).stdout.trim());
  return [loreDir, gitDir, "/usr/bin", "/bin"].join(":");
}

export interface Storage {
  url: string;
  /** Each request: its method and whether it carried the right bearer token. */
  requests: { method: string; authorized: boolean }[];
  stop(): void;
}

/** Storage on 127.0.0.1: PUT with the upload token stores the file, GET with the read token serves it; 401 otherwise. */
export function storage(uploadToken: string, readToken: string): Storage {
  let file: Uint8Array | undefined;
  const requests: Storage["requests"] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const token = req.method === "PUT" ? uploadToken : readToken;
      const authorized = req.headers.get("authorization") === `Bearer ${token}`;
      requests.push({ method: req.method, authorized });
      if (!authorized) return new Response("no\n", { status: 401 });
      if (req.method === "PUT") {
        file = new Uint8Array(await req.arrayBuffer());
        return new Response("stored\n", { status: 201 });
      }
      return file ? new Response(file as Uint8Array<ArrayBuffer>) : new Response("none yet\n", { status: 404 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/lore-index.bin`, requests, stop: () => server.stop(true) };
}

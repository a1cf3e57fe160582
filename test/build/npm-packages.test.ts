/** The npm packages npm run release writes, installed offline from their tarballs into a temporary prefix, as npm i -g would. */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { createReadStream, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createGunzip } from "node:zlib";
import { join } from "node:path";
import { ROOT, buildInfo } from "../../build/build-info.ts";
import { LAUNCHER_PACKAGE, platformPackage, tarballName } from "../../build/npm-packages.ts";
import { RELEASE_TARGETS } from "../../build/targets.ts";
import { TestRepo } from "../helpers/git-repo.ts";
import { BUILD_TIMEOUT_MS, builtRelease, discardScratch, type BuiltRelease } from "./built-release.ts";

setDefaultTimeout(120_000);

const info = buildInfo();
const hostIsLinuxX64 = process.platform === "linux" && process.arch === "x64";
let release: BuiltRelease;
let npmDir: string;

beforeAll(async () => {
  release = await builtRelease();
  npmDir = join(release.dir, "npm");
}, BUILD_TIMEOUT_MS);

afterAll(discardScratch);

function run(cmd: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(cmd[0]!, cmd.slice(1), { cwd, encoding: "utf8", timeout: 120_000, env: { ...process.env, npm_config_update_notifier: "false", ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface TarEntryHead {
  name: string;
  mode: number;
  data: Buffer;
}

/** The first entries of a .tgz, read from its first few KB: package.json comes first, so the 100 MB binary is never inflated. */
async function firstEntries(tarball: string, bytes = 16_384): Promise<TarEntryHead[]> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const chunk of createReadStream(join(npmDir, tarball)).pipe(createGunzip())) {
    chunks.push(chunk as Buffer);
    n += (chunk as Buffer).length;
    if (n >= bytes) break;
  }
  const head = Buffer.concat(chunks);
  const entries: TarEntryHead[] = [];
  for (let at = 0; at + 512 <= head.length && head[at] !== 0; ) {
    const field = (from: number, length: number) => head.subarray(at + from, at + from + length).toString("latin1").replace(/\0.*$/s, "").trim();
    const size = parseInt(field(124, 12), 8);
    entries.push({ name: field(0, 100), mode: parseInt(field(100, 8), 8), data: head.subarray(at + 512, at + 512 + Math.min(size, 4096)) });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

async function manifest(tarball: string) {
  const json = (await firstEntries(tarball)).find((e) => e.name === "package/package.json");
  return JSON.parse(json!.data.toString("utf8"));
}

/** npm install -g of these tarballs into a new prefix, never asking a registry; the prefix. */
function installOffline(tarballs: string[]): string {
  const prefix = mkdtempSync(join(release.tmp, "npm-prefix-"));
  const r = run(["npm", "install", "-g", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", ...tarballs.map((t) => `./${t}`)], npmDir);
  expect(r.stderr.split("\n").filter((l) => /ERR/.test(l))).toEqual([]);
  expect(r.code).toBe(0);
  return prefix;
}

test("the launcher's optionalDependencies name one package per platform, each with its os and cpu and an executable bin/lore", async () => {
  const names = readdirSync(npmDir).sort();
  const launcher = tarballName(LAUNCHER_PACKAGE, info.version);
  expect(names).toEqual([launcher, ...RELEASE_TARGETS.map((t) => tarballName(platformPackage(t), info.version))].sort());
  const top = await manifest(launcher);
  expect(top.bin).toEqual({ lore: "bin/lore.js" });
  // The MCP Registry accepts server.json's npm package only when the published package.json names the server.
  expect(top.mcpName).toBe(JSON.parse(readFileSync(join(ROOT, "server.json"), "utf8")).name);
  expect(top.optionalDependencies).toEqual(Object.fromEntries(RELEASE_TARGETS.map((t) => [platformPackage(t), info.version])));
  for (const t of RELEASE_TARGETS) {
    const file = tarballName(platformPackage(t), info.version);
    expect(await manifest(file)).toMatchObject({ name: platformPackage(t), version: info.version, os: [t.os], cpu: [t.arch] });
    const bin = (await firstEntries(file)).find((e) => e.name === "package/bin/lore");
    expect(bin?.mode).toBe(0o755);
  }
});

test.skipIf(!hostIsLinuxX64)("installed offline from the tarballs, lore reports the version and answers a question as git does", () => {
  const prefix = installOffline([tarballName(LAUNCHER_PACKAGE, info.version), tarballName(platformPackage({ os: "linux", arch: "x64" }), info.version)]);
  const lore = join(prefix, "bin", "lore");
  const version = run([lore, "--version"], prefix);
  expect(version.stdout.trim()).toBe(`lore ${info.version} (${info.commit})`);
  const repo = new TestRepo();
  repo.write("a.txt", "one\n").commit("first");
  repo.write("a.txt", "one\ntwo\n").commit("second");
  const log = run([lore, "log", "-n", "1", "--json", "--no-daemon"], repo.dir, { LORE_HOME: join(prefix, "lore-home") });
  expect(log.code).toBe(0);
  const answer = JSON.parse(log.stdout);
  expect(answer.commits.map((c: { sha: string; subject: string }) => [c.sha, c.subject])).toEqual([[repo.git("rev-parse", "HEAD").trim().slice(0, 12), "second"]]);
  // The launcher passes the exit status through: a usage error is 2, as from the binary itself.
  expect(run([lore, "blame"], repo.dir).code).toBe(2);
});

test("without its platform's package, or on a platform that has none, the launcher says what is missing and which platforms exist", () => {
  // Offline, npm cannot fetch the optional package: it skips it, as with --omit=optional.
  const prefix = installOffline([tarballName(LAUNCHER_PACKAGE, info.version)]);
  const launcher = join(prefix, "lib", "node_modules", ...LAUNCHER_PACKAGE.split("/"), "bin", "lore.js");
  if (hostIsLinuxX64) {
    const missing = run([join(prefix, "bin", "lore"), "--version"], prefix);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`${platformPackage({ os: "linux", arch: "x64" })}, the package with this platform's binary, is not installed`);
  }
  const elsewhere = run(["node", "-e", `Object.defineProperty(process, "platform", { value: "win32" }); require(${JSON.stringify(launcher)})`], prefix);
  expect(elsewhere.code).toBe(1);
  expect(elsewhere.stderr).toBe(`lore: no lore binary for win32/${process.arch}: lore ships for linux/x64, linux/arm64, darwin/x64, darwin/arm64.\n`);
});

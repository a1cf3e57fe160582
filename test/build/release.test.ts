/** The release is what users run: build it once, check its archives and checksums, and install it with install.sh. */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, buildInfo } from "../../build/build-info.ts";
import { RELEASE_TARGETS, archiveName } from "../../build/targets.ts";
import { binaryFormat, hasCodeSignature, readHead } from "./binary-format.ts";
import { BUILD_TIMEOUT_MS, builtRelease, discardScratch } from "./built-release.ts";
import { serveRelease, type Fault, type ReleaseServer } from "./release-server.ts";

// Each test reads or unpacks ~100 MB binaries; bun's 5 s default is too tight on 2 cores.
setDefaultTimeout(60_000);

const info = buildInfo();
const EXPECTED_FORMAT: Record<string, string> = {
  linux_x64: "ELF x86-64",
  linux_arm64: "ELF aarch64",
  darwin_x64: "Mach-O x86_64",
  darwin_arm64: "Mach-O arm64",
};

let tmp: string;
let releaseDir: string;
let server: ReleaseServer;

function run(cmd: string[], opts: { cwd?: string; env?: Record<string, string | undefined> } = {}) {
  const proc = Bun.spawnSync(cmd, { cwd: opts.cwd ?? tmp, env: opts.env ?? process.env, stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
}

let unpacked: (os: string, arch: string) => string;

// Asynchronous, unlike run(): the HTTP server answering install.sh lives on this event loop.
async function install(fault: Fault, installDir: string, home = mkdtempSync(join(tmp, "home-"))) {
  const proc = Bun.spawn(["sh", join(ROOT, "install.sh")], {
    cwd: home,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PATH: process.env.PATH,
      HOME: home,
      LORE_INSTALL_BASE_URL: server.url(fault),
      LORE_INSTALL_DIR: installDir,
      // A proxy in the environment must not intercept the loopback server.
      no_proxy: "127.0.0.1",
      NO_PROXY: "127.0.0.1",
    },
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

beforeAll(async () => {
  const built = await builtRelease();
  tmp = built.tmp;
  releaseDir = built.dir;
  unpacked = built.unpacked;
  server = await serveRelease(releaseDir);
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await server?.close();
  discardScratch();
});

test("checksums.txt lists every archive and sha256sum accepts it", () => {
  const listed = readFileSync(join(releaseDir, "checksums.txt"), "utf8").trim().split("\n");
  const names = listed.map((line) => line.match(/^[0-9a-f]{64} {2}(\S+)$/)?.[1]);
  expect(names.sort()).toEqual(RELEASE_TARGETS.map((t) => archiveName(info.version, t)).sort());
  const tool = run(["sh", "-c", "command -v sha256sum"]).code === 0 ? ["sha256sum"] : ["shasum", "-a", "256"];
  const check = run([...tool, "-c", "checksums.txt"], { cwd: releaseDir });
  expect(check.code).toBe(0);
  expect(check.stdout.match(/: OK$/gm)?.length).toBe(RELEASE_TARGETS.length);
});

test("each archive holds an executable lore built for its platform", async () => {
  for (const t of RELEASE_TARGETS) {
    const files = readdirSync(unpacked(t.os, t.arch));
    expect(files).toContain("lore");
    expect(files.every((f) => ["lore", "LICENSE", "README.md"].includes(f))).toBe(true);
    const binary = join(unpacked(t.os, t.arch), "lore");
    const head = await readHead(binary);
    expect(`${t.os}_${t.arch}: ${binaryFormat(head)}`).toBe(`${t.os}_${t.arch}: ${EXPECTED_FORMAT[`${t.os}_${t.arch}`]}`);
    if (t.os === "darwin") expect(hasCodeSignature(head)).toBe(true);
    expect(statSync(binary).mode & 0o111).not.toBe(0);
  }
});

const hostIsLinuxX64 = process.platform === "linux" && process.arch === "x64";

// Only a build for the host can run here; the install tests below assume one too.
test.skipIf(!hostIsLinuxX64)("the binary ignores a bunfig.toml and .env in the folder it runs in", () => {
  const repo = mkdtempSync(join(tmp, "hostile-"));
  const marker = join(repo, "preload-ran");
  writeFileSync(join(repo, "evil.ts"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "x");`);
  writeFileSync(join(repo, "bunfig.toml"), 'preload = ["./evil.ts"]\n');
  writeFileSync(join(repo, ".env"), "LORE_DEBUG=1\n");
  const result = run([join(unpacked("linux", "x64"), "lore"), "--version"], { cwd: repo });
  expect(result.code).toBe(0);
  expect(existsSync(marker)).toBe(false);
});

test("install.sh installs the verified binary, which reports the package version", async () => {
  const dir = join(tmp, "bin-ok");
  const result = await install("ok", dir);
  expect(result.stderr).toContain("lore setup");
  expect(result.code).toBe(0);
  expect(readdirSync(dir)).toEqual(["lore"]);
  const version = run([join(dir, "lore"), "--version"]);
  expect(version.code).toBe(0);
  expect(version.stdout.trim()).toBe(`lore ${info.version} (${info.commit})`);
});

test("install.sh refuses a tampered archive and installs nothing", async () => {
  const dir = join(tmp, "bin-tampered");
  const result = await install("tampered", dir);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain("checksum verification failed");
  expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
});

test("install.sh installs nothing when the download is cut short", async () => {
  const dir = join(tmp, "bin-cut");
  const cut = await install("cut", dir);
  expect(cut.code).not.toBe(0);
  expect(cut.stderr).toContain("nothing was installed");
  expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);

  // A short but complete-looking response gets past the download and is caught by the checksum;
  // the lore already installed stays as it was.
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "lore"), "#!/bin/sh\necho old lore\n", { mode: 0o755 });
  const half = await install("half", dir);
  expect(half.code).not.toBe(0);
  expect(half.stderr).toContain("checksum verification failed");
  expect(readdirSync(dir)).toEqual(["lore"]);
  expect(readFileSync(join(dir, "lore"), "utf8")).toBe("#!/bin/sh\necho old lore\n");
});

test.skipIf(!hostIsLinuxX64)("install.sh over an older lore replaces it and says so, with the completions where each shell's folder is found", async () => {
  const dir = join(tmp, "bin-upgrade");
  const home = mkdtempSync(join(tmp, "home-"));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "lore"), '#!/bin/sh\necho "lore 0.0.1 (old)"\n', { mode: 0o755 });
  const bashFile = join(home, ".local/share/bash-completion/completions/lore");
  mkdirSync(join(bashFile, ".."), { recursive: true });
  writeFileSync(bashFile, "# an older completion\n");
  mkdirSync(join(home, ".config/fish"), { recursive: true });
  mkdirSync(join(home, ".zfunc"));
  const first = await install("ok", dir, home);
  expect(first.code).toBe(0);
  const now = `lore ${info.version} (${info.commit})`;
  expect(first.stderr).toContain(`Replaced lore 0.0.1 (old) with ${now} at ${dir}/lore`);
  expect(first.stderr).toContain(`bash completion: ${bashFile} (replaced the older one)`);
  const printed = (shell: string) => run([join(dir, "lore"), "completion", shell]).stdout;
  expect(readFileSync(bashFile, "utf8")).toBe(printed("bash"));
  expect(readFileSync(join(home, ".config/fish/completions/lore.fish"), "utf8")).toBe(printed("fish"));
  // zsh has no folder of its own: ~/.zfunc, when it is there, is taken as one on the fpath.
  expect(readFileSync(join(home, ".zfunc/_lore"), "utf8")).toBe(printed("zsh"));
  const again = await install("ok", dir, home);
  expect(again.code).toBe(0);
  expect(again.stderr).toContain(`Reinstalled ${now} at ${dir}/lore (it was already there)`);
  expect(again.stderr).toContain(`bash completion: ${bashFile} (already current)`);
});

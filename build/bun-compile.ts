/** Compiles src/main.ts into one standalone binary; the only place that knows the `bun build` flags. */
import { join } from "node:path";
import { ROOT, type BuildInfo } from "./build-info.ts";
import { bunTarget, type Target } from "./targets.ts";

export interface CompileOptions {
  outfile: string;
  info: BuildInfo;
  /** Omitted: the host's own platform. */
  target?: Target;
}

// Cross-compiling needs the target's Bun runtime. Bun fetches it by itself from the npm
// registry (`@oven/bun-<os>-<x64|aarch64>`, its own version) and caches it in
// ~/.bun/install/cache, so nothing beyond npm is reached (checked with 1.4.5: all four
// targets fetch). Should that ever fail, `npm pack` that package and pass its bin/bun
// with --compile-executable-path.
export function compileArgs(opts: CompileOptions): string[] {
  const args = [
    "build",
    join(ROOT, "src/main.ts"),
    "--compile",
    "--bytecode",
    "--format=esm",
    "--minify",
    // Chunks load when first imported: the CLI path, which only sends a question to the
    // daemon, never loads the index, git, MCP or zod code (a single bundle cost ~14 ms at start).
    "--splitting",
    // A binary run inside someone's repository must not pick up that repository's
    // bunfig.toml (preload scripts) or .env: that would run or configure foreign code.
    "--no-compile-autoload-bunfig",
    "--no-compile-autoload-dotenv",
    "--define",
    `LORE_BUILD_VERSION=${JSON.stringify(opts.info.version)}`,
    "--define",
    `LORE_BUILD_COMMIT=${JSON.stringify(opts.info.commit)}`,
    "--outfile",
    opts.outfile,
  ];
  if (opts.target) args.push(`--target=${bunTarget(opts.target)}`);
  return args;
}

export async function compile(opts: CompileOptions): Promise<void> {
  // process.execPath is the bun running this script, so the compiler matches the runtime version.
  const proc = Bun.spawn([process.execPath, ...compileArgs(opts)], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) {
    const what = opts.target ? bunTarget(opts.target) : "host";
    throw new Error(`bun build --compile (${what}) failed with exit code ${code}:\n${err || out}`);
  }
}

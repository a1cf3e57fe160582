/** Which files are noise to a list of files (lockfiles, generated and vendored files): hotspots, cochange, review's missing, owners and contributors leave them out unless asked for them. */
import { git } from "../../git/run.ts";
import type { Scope } from "../../index/repo-index.ts";
import type { QueryContext } from "../context.ts";
import { treeAt } from "./common.ts";

const LOCKFILES = new Set([
  "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock", "bun.lockb", "deno.lock", "Cargo.lock", "Gemfile.lock",
  "poetry.lock", "Pipfile.lock", "uv.lock", "pdm.lock", "composer.lock", "go.sum", "flake.lock", "mix.lock", "pubspec.lock", "Podfile.lock",
  "packages.lock.json", "gradle.lockfile", "Package.resolved", "shard.lock", "cabal.project.freeze",
]);
/** Paths linguist treats as generated or vendored by default (a short list of the common ones). */
const GENERATED = /(^|\/)(node_modules|vendor|vendors|third[_-]party|bower_components|dist)\/|\.min\.(js|css)$|\.(js|css)\.map$|(^|\/)[^/]*\.(pb\.go|pb\.cc|pb\.h|_pb2\.py|g\.dart|generated\.\w+)$/;

/** A lockfile, or a generated or vendored file by its name alone. */
export function isNoiseByName(path: string): boolean {
  const base = path.slice(path.lastIndexOf("/") + 1);
  return LOCKFILES.has(base) || GENERATED.test(path);
}

/** The paths `.gitattributes` marks linguist-generated or linguist-vendored (git check-attr; read-only). */
async function linguistNoise(ctx: QueryContext, paths: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  if (paths.length === 0) return out;
  const text = (await git(["check-attr", "-z", "--stdin", "linguist-generated", "linguist-vendored"], { ...ctx.index.git, input: paths.join("\0") + "\0" })).toString("utf8");
  const f = text.split("\0");
  for (let i = 0; i + 2 < f.length; i += 3) if (f[i + 2] === "set" || f[i + 2] === "true") out.add(f[i]!);
  return out;
}

/** Whether the tree has a .gitattributes file anywhere (only then is git check-attr worth asking). */
const withAttributes = new Map<string, boolean>();
async function hasAttributes(ctx: QueryContext, scope: Scope): Promise<boolean> {
  let has = withAttributes.get(scope.commit);
  if (has === undefined) {
    has = (await treeAt(ctx, scope)).some((e) => e.path === ".gitattributes" || e.path.endsWith("/.gitattributes"));
    if (withAttributes.size > 100) withAttributes.clear();
    withAttributes.set(scope.commit, has);
  }
  return has;
}

/** The paths of `paths` that are noise: by name, or marked generated or vendored in `.gitattributes`. */
export async function noiseAmong(ctx: QueryContext, scope: Scope, paths: readonly string[]): Promise<Set<string>> {
  const out = new Set(paths.filter(isNoiseByName));
  if (!(await hasAttributes(ctx, scope))) return out;
  for (const p of await linguistNoise(ctx, paths.filter((p) => !out.has(p)))) out.add(p);
  return out;
}

/** The entries that are not noise (all of them with `keep`, or when every one is: a lockfile or a generated folder asked about by name is answered). */
export async function withoutNoise<T extends { path: string }>(ctx: QueryContext, scope: Scope, entries: T[], keep: boolean): Promise<T[]> {
  if (keep) return entries;
  const noise = await noiseAmong(ctx, scope, entries.map((e) => e.path));
  const kept = entries.filter((e) => !noise.has(e.path));
  return kept.length > 0 ? kept : entries;
}

/** Code search through git on a damaged clone: the paths whose content git cannot read are left out of the walk, and the answer says so. */
import { LoreError } from "../../errors.ts";
import { fromLatin1 } from "../../git/paths.ts";
import { gitMaybe } from "../../git/run.ts";
import type { QueryContext } from "../context.ts";

/** What a search left out, shared by the git runs of one search (a walk in slices meets the same object once). */
export interface LeftOut {
  /** Paths the walk leaves out. */
  paths: string[];
  /** "path: why", as the other answers' leftOut says it. */
  why: string[];
}

/** An object git log stopped at, when that is why it failed ("unable to read X", "Cannot read blob X"). */
export function unreadableObject(err: unknown): string | undefined {
  if (!(err instanceof LoreError) || err.code !== "GIT_FAILED") return undefined;
  return /(?:unable to read|cannot read blob|could not read) ([0-9a-f]{40,64})\b/i.exec(err.message)?.[1];
}

/**
 * The paths that hold `blob` in the commits of the same walk: --find-object compares object
 * names only, so it reads no content and cannot fail on the missing one.
 */
export async function pathsHolding(ctx: QueryContext, blob: string, revs: string[], input: string | undefined): Promise<string[]> {
  const out = await gitMaybe(["log", "--format=", "--raw", "-z", "--no-abbrev", "--no-renames", `--find-object=${blob}`, ...revs], { ...ctx.index.git, input });
  if (!out) return [];
  const raw = out.toString("latin1").split("\0");
  const paths = new Set<string>();
  // ":oldMode newMode oldBlob newBlob status", then the path (a record may begin with the format's newline).
  for (let i = 0; i + 1 < raw.length; i++) if (raw[i]!.trim().startsWith(":")) paths.add(fromLatin1(raw[++i]!));
  return [...paths];
}

/** The pathspecs for git log: the asked paths as they are, the left-out ones excluded (pathspec magic needs --no-literal-pathspecs). */
export function pathspecArgs(paths: string[], left: LeftOut | undefined): { literal: string; specs: string[] } {
  if (!left?.paths.length) return { literal: "--literal-pathspecs", specs: paths };
  return { literal: "--no-literal-pathspecs", specs: [...paths.map((p) => `:(literal)${p}`), ...left.paths.map((p) => `:(exclude,literal)${p}`)] };
}

export function leftOutWhy(path: string, blob: string): string {
  return `${path}: code search left it out (all its versions): git cannot read object ${blob}, missing from the repository's object store (a damaged or incomplete clone; git fsck lists what is missing).`;
}

/** Most a search leaves out before it gives git's error: each try leaves out one more object's paths. */
export const MAX_LEFT_OUT = 8;

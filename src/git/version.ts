/** Checks once per process that the git on the PATH is one lore can rely on. */
import { LoreError } from "../errors.ts";
import { gitText } from "./run.ts";

/** --no-ignore-revs-file (2.23), --end-of-options (2.24), changed-path Bloom filters (2.27), all settled by 2.30. */
export const MIN_GIT: readonly [number, number] = [2, 30];

export function parseGitVersion(text: string): [number, number, number] | null {
  const m = /git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
}

let checked: Promise<string> | null = null;

/** The git version string; GIT_MISSING or GIT_TOO_OLD when lore cannot work with it. */
export function ensureGit(): Promise<string> {
  checked ??= (async () => {
    const text = await gitText(["--version"], { cwd: "/", timeoutMs: 10_000 });
    const v = parseGitVersion(text);
    if (!v) throw new LoreError("GIT_MISSING", `"git --version" printed "${text}", which lore does not understand; install git ${MIN_GIT.join(".")} or newer.`);
    if (v[0] < MIN_GIT[0] || (v[0] === MIN_GIT[0] && v[1] < MIN_GIT[1]))
      throw new LoreError("GIT_TOO_OLD", `lore needs git ${MIN_GIT.join(".")} or newer; this git is ${v.join(".")}. Upgrade git (e.g. apt-get install git, brew install git).`);
    return v.join(".");
  })();
  checked.catch(() => (checked = null));
  return checked;
}

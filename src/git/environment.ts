/** What every git lore runs starts with: config pinned so the bytes it prints are the same for every user, and an environment of lore's own. */

/**
 * Config that would change the bytes git prints, pinned so a user's settings
 * (color.ui=always, log.showSignature, diff.relative, ...) cannot reach the parsers.
 */
const PINNED_CONFIG = [
  "color.ui=never",
  "core.quotepath=off",
  "log.showSignature=false",
  "log.follow=false",
  "log.showRoot=true",
  "log.decorate=false",
  "diff.relative=false",
  "diff.noprefix=false",
  "diff.mnemonicPrefix=false",
  "i18n.logOutputEncoding=UTF-8",
  "blame.markIgnoredLines=false",
  "blame.markUnblamableLines=false",
  "core.fsmonitor=false",
  "advice.detachedHead=false",
  // No download, ever: in a partial clone git would fetch a missing object from the remote when
  // it reads one (GIT_NO_LAZY_FETCH says no from git 2.44; older git honours this refusal instead).
  "protocol.allow=never",
];

export const BASE_ARGS: readonly string[] = ["--no-pager", ...PINNED_CONFIG.flatMap((c) => ["-c", c])];

/** The environment git runs with: no GIT_* from the caller, C locale, no optional locks, no prompts. */
export function gitEnv(extra?: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith("GIT_")) continue;
    env[k] = v;
  }
  env.LC_ALL = "C";
  env.LANG = "C";
  env.GIT_OPTIONAL_LOCKS = "0";
  env.GIT_NO_LAZY_FETCH = "1";
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_PAGER = "cat";
  env.PAGER = "cat";
  // Every path lore hands git is a name, never a pattern: \`f*\` is the file called f*.
  env.GIT_LITERAL_PATHSPECS = "1";
  return { ...env, ...extra };
}

/**
 * A git that fetches (lore serve's own clones, which nobody works in): the user's config, environment
 * and credentials, so its remotes answer as they do for the service's user; no prompt, no hooks, no pager.
 */
export const FETCH_ARGS: readonly string[] = ["--no-pager", "-c", "core.hooksPath=/dev/null", "-c", "advice.detachedHead=false"];

export function fetchEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return { ...env, LC_ALL: "C", GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0" };
}

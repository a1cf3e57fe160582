/** Which lore tool answers the question a git command asks: the text of the PreToolUse nudge. */

/** git's global options that take their value as the next word. */
const OPTIONS_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path"]);

/** Rough shell words of one simple command; quotes are dropped, which is all the matching needs. */
function words(segment: string): string[] {
  return (segment.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((w) => w.replace(/^["']|["']$/g, ""));
}

/** The git subcommand and its arguments in each `git ...` of a command line (`cd x && git -C y log`, too). */
export function gitInvocations(commandLine: string): { sub: string; args: string[] }[] {
  const found: { sub: string; args: string[] }[] = [];
  for (const segment of commandLine.split(/&&|\|\||[;|\n]/)) {
    const w = words(segment);
    let i = 0;
    while (i < w.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w[i]!)) i++; // FOO=bar git ...
    if (!/(^|\/)git$/.test(w[i] ?? "")) continue;
    i++;
    while (i < w.length && w[i]!.startsWith("-")) i += OPTIONS_WITH_VALUE.has(w[i]!) ? 2 : 1;
    if (i < w.length) found.push({ sub: w[i]!, args: w.slice(i + 1) });
  }
  return found;
}

const INTENT = "lore_intent {path, startLine, endLine} returns the full messages of the commits that wrote a line range, and the other files each touched, in one call";
const BLAME = "lore_blame {path, startLine?, endLine?} gives git blame's authorship as [start, end, sha] hunks with each commit listed once, about a third of --porcelain's bytes";
const HISTORY = "lore_history {path, limit?} lists a file's commits newest first, following renames, with +/- lines";
const LOG = "lore_log {paths?, limit?, author?, since?, not?} lists commits newest first (of the repo or under paths) with their files and +/-, from the index";
const SHOW = "lore_show {rev, paths?, patch?} gives a commit's message, parents, files with +/- and the patch of the paths; rev \"REV:PATH\" gives the file as it was";
const COMPARE = "lore_compare {base, head?} gives what a branch changed since it left base: merge base, ahead/behind, commits and files with +/-";
const LINES = "lore_history {path, lines: \"A,B\" or \":func\"} is git log -L: each commit's range and diff, cached";
const SEARCH = "lore_search {query} finds commits by message words, ranked (git log --grep)";
const PICKAXE = "lore_search {query, code: true, regex?, oldest?} is git log -S/-G with the files where the count changed";
const CONTRIBUTORS = "lore_contributors {path?} sums who wrote the lines that exist now, per author";

function nudgeFor(sub: string, args: string[]): string | undefined {
  const has = (...flags: string[]) => args.some((a) => flags.some((f) => a === f || a.startsWith(f)));
  if (sub === "blame" || sub === "annotate") return `${BLAME}; ${INTENT}.`;
  if (sub === "log") {
    if (has("-L")) return `${LINES}; for why lines exist, ${INTENT}.`;
    if (has("-S", "-G")) return `${PICKAXE}.`;
    if (has("--grep")) return `${SEARCH}.`;
    if (has("--follow")) return `${HISTORY}.`;
    const paths = args.includes("--") ? args.slice(args.indexOf("--") + 1) : args.filter((a) => !a.startsWith("-") && /[/.]/.test(a) && !a.includes(".."));
    // One file: its history follows renames; a folder, several paths or none: the repository's log.
    const oneFile = paths.length === 1 && /\.[A-Za-z0-9]+$/.test(paths[0]!);
    return oneFile ? `${HISTORY}; ${LOG}; for why lines exist, ${INTENT}.` : `${LOG}.`;
  }
  if (sub === "show") return args.some((a) => a.includes(":")) ? `${SHOW}.` : `${SHOW}; if you are after why code was written, ${INTENT}.`;
  // git diff A...B (what a branch changed) or A..B: a pull request's view.
  if (sub === "diff" && args.some((a) => /^[^-].*\.\.\.?/.test(a))) return `${COMPARE}.`;
  if (sub === "shortlog") return `${CONTRIBUTORS}.`;
  return undefined;
}

/** The additionalContext for a Bash command line, or undefined when lore has nothing better to offer. */
export function gitNudge(commandLine: string): string | undefined {
  for (const { sub, args } of gitInvocations(commandLine)) {
    const text = nudgeFor(sub, args);
    if (text) return `lore answers this from its index, faster and in fewer tokens than git: ${text} (git still works; this is a hint, not a block.)`;
  }
  return undefined;
}

/**
 * The escape hatch's allow-list as data: the read-only subcommands, the exact option names each
 * takes and how each takes its value, and the options refused with the reason the refusal gives.
 */

/** How an option takes its value: none, always (attached or the next word), or only attached (`--stat=80`). */
type Kind = "flag" | "value" | "optional";
export type Table = Map<string, Kind>;

/** "--x" a flag, "--x=" takes a value, "--x[=]" an optional value written attached; the same for "-x". */
function table(...specs: string[]): Table {
  const out: Table = new Map();
  for (const word of specs.join(" ").split(/\s+/).filter(Boolean)) {
    if (word.endsWith("[=]")) out.set(word.slice(0, -3), "optional");
    else if (word.endsWith("=")) out.set(word.slice(0, -1), "value");
    else out.set(word, "flag");
  }
  return out;
}

const REV_LIST = `--max-count= -n= --skip= --since= --after= --until= --before= --author= --committer= --grep= --all-match
  --invert-grep -i --regexp-ignore-case -E --extended-regexp -F --fixed-strings -P --perl-regexp --basic-regexp --merges --no-merges
  --min-parents= --max-parents= --no-min-parents --no-max-parents --first-parent --not --all --branches[=] --tags[=] --remotes[=]
  --glob= --exclude= --reflog --single-worktree --ignore-missing --cherry-mark --cherry-pick --left-only --right-only --cherry
  --ancestry-path --simplify-by-decoration --full-history --dense --sparse --simplify-merges --show-pulls --topo-order --date-order
  --author-date-order --reverse --no-walk[=] --do-walk --boundary --left-right --parents --children --walk-reflogs -g --grep-reflog=
  --remove-empty`;
const FORMAT = `--pretty[=] --format= --abbrev-commit --no-abbrev-commit --oneline --encoding= --expand-tabs[=] --no-expand-tabs
  --notes[=] --no-notes --date= --relative-date --decorate[=] --no-decorate --decorate-refs= --decorate-refs-exclude= --source
  --use-mailmap --mailmap --no-mailmap --no-use-mailmap --log-size --graph --show-linear-break[=] -z --abbrev[=] --no-abbrev
  --full-diff --follow -L=`;
const DIFF = `-p -u --patch -s --no-patch -U= --unified= --raw --patch-with-raw --patch-with-stat --numstat --shortstat --stat[=]
  --compact-summary --dirstat[=] --dirstat-by-file[=] --cumulative --summary --name-only --name-status --submodule[=] --word-diff[=]
  --word-diff-regex= --color-words[=] --no-renames --rename-empty --no-rename-empty -M[=] --find-renames[=] -B[=] --break-rewrites[=]
  --find-copies[=] --find-copies-harder -D --irreversible-delete -l= --diff-filter= -S= -G= --find-object= --pickaxe-all
  --pickaxe-regex -R --relative[=] --no-relative -a --text --ignore-cr-at-eol --ignore-space-at-eol -b --ignore-space-change -w
  --ignore-all-space --ignore-blank-lines -I= --ignore-matching-lines= --inter-hunk-context= -W --function-context --exit-code
  --quiet --no-ext-diff --no-textconv --ignore-submodules[=] --src-prefix= --dst-prefix= --no-prefix --default-prefix --full-index
  --binary --minimal --patience --histogram --anchored= --diff-algorithm= --indent-heuristic --no-indent-heuristic --check
  --ws-error-highlight= -m --cc --combined-all-paths --diff-merges= --no-diff-merges`;
const REF_FILTERS = "--contains[=] --no-contains[=] --merged[=] --no-merged[=] --sort= --format= --points-at[=] -i --ignore-case";

interface Subcommand {
  options: Table;
  /** `-5` as `--max-count=5`. */
  numeric?: boolean;
  /** Added after the subcommand: what keeps it from running programs or taking a non-read mode. */
  add?: string[];
}

export const SUBCOMMANDS: Record<string, Subcommand> = {
  log: { options: table(REV_LIST, FORMAT, DIFF), numeric: true, add: ["--no-ext-diff", "--no-textconv"] },
  show: { options: table(REV_LIST, FORMAT, DIFF), numeric: true, add: ["--no-ext-diff", "--no-textconv"] },
  diff: { options: table(DIFF, "--cached --staged --merge-base --abbrev[=]"), add: ["--no-ext-diff", "--no-textconv"] },
  blame: {
    options: table(`-b --root --show-stats --score-debug -f --show-name -n --show-number -p --porcelain --line-porcelain -l -t -s -e
      --show-email -w --abbrev[=] -L= -M[=] --reverse --first-parent --date= --ignore-rev= --incremental --since= --minimal --no-progress`),
    add: ["--no-textconv"],
  },
  shortlog: { options: table(REV_LIST.replace("-n=", ""), "-n --numbered -s --summary -e --email -w[=] --format= --group= --committer") },
  grep: {
    options: table(`-i --ignore-case -I -w --word-regexp -v --invert-match -h -H --full-name -E --extended-regexp -G --basic-regexp
      -F --fixed-strings -P --perl-regexp -n --line-number --column -l --files-with-matches --name-only -L --files-without-match -z --null
      -o --only-matching --count --heading --break -p --show-function -W --function-context -A= -B= --after-context= --before-context=
      --context= -e= --and --or --not --all-match -q --quiet --max-depth= --cached --untracked --no-exclude-standard --exclude-standard
      --recurse-submodules -a --text --no-textconv -r --recursive --no-recursive -m= --max-count= --threads=`),
    add: ["--no-textconv"],
  },
  "ls-files": {
    options: table(`--cached -d --deleted -m --modified -o --others -i --ignored -s --stage -u --unmerged -k --killed -z -t -v -f
      --directory --no-empty-directory --eol --deduplicate --exclude= -x= --exclude-standard --error-unmatch --with-tree= --full-name
      --recurse-submodules --abbrev[=] --format= --sparse`),
  },
  "ls-tree": { options: table("-d -r -t -l --long -z --name-only --name-status --object-only --full-name --full-tree --abbrev[=] --format=") },
  "cat-file": { options: table("-p -t -s -e") },
  "rev-parse": {
    options: table(`--verify -q --quiet --short[=] --abbrev-ref[=] --symbolic --symbolic-full-name --all --branches[=] --tags[=]
      --remotes[=] --glob= --exclude= --disambiguate= --show-toplevel --show-prefix --show-cdup --show-superproject-working-tree
      --absolute-git-dir --git-common-dir --is-inside-git-dir --is-inside-work-tree --is-bare-repository --is-shallow-repository
      --show-object-format[=] --since= --after= --until= --before= --revs-only --no-revs --flags --no-flags --not --default=`),
  },
  "rev-list": {
    options: table(REV_LIST, "--count --objects --objects-edge --no-object-names --object-names --timestamp --header --abbrev-commit --format= --pretty[=] --abbrev[=] --quiet"),
    numeric: true,
  },
  describe: { options: table("--all --tags --contains --abbrev= --candidates= --exact-match --debug --long --match= --exclude= --always --first-parent") },
  "merge-base": { options: table("-a --all --octopus --independent --is-ancestor --fork-point") },
  "name-rev": { options: table("--tags --refs= --exclude= --all --name-only --no-undefined --always") },
  "for-each-ref": { options: table("--count= --shell -s --perl --python --tcl", REF_FILTERS) },
  // A name without --list (or a filter that implies it) creates a ref: refused in finish().
  branch: { options: table("--list -l -a --all -r --remotes -v --verbose --show-current --abbrev= --no-abbrev", REF_FILTERS) },
  tag: { options: table("--list -l -n[=]", REF_FILTERS) },
  status: {
    options: table(`-s --short -b --branch --show-stash --porcelain[=] --long -v --verbose -u[=] --untracked-files[=] --ignore-submodules[=]
      --ignored[=] -z --no-column --ahead-behind --no-ahead-behind --renames --no-renames --find-renames[=]`),
  },
};

export const ALLOWED_SUBCOMMANDS: readonly string[] = Object.keys(SUBCOMMANDS);

/** Options refused everywhere, with the reason the refusal gives. */
export const DENIED: Record<string, string> = {
  "-c": "sets git configuration, through which git runs programs (core.pager, diff.external)",
  "--config-env": "sets git configuration, through which git runs programs (core.pager, diff.external)",
  "-C": "is refused: as a git option it moves git to another folder",
  "--git-dir": "points git at another repository",
  "--work-tree": "points git at another work tree",
  "--namespace": "changes which refs git sees",
  "--exec-path": "runs git's programs from another folder",
  "--output": "writes a file",
  "--output-directory": "writes files",
  "--ext-diff": "runs an external diff program",
  "--textconv": "runs textconv programs",
  "--no-index": "compares files outside the repository",
  "-O": "runs a program (grep) or reads an order file from anywhere (diff)",
  "--open-files-in-pager": "runs a program",
  "--orderfile": "reads a file from anywhere",
  "--exec": "runs a program",
  "--upload-pack": "runs a program",
  "--receive-pack": "runs a program",
  "--contents": "reads a file from anywhere",
  "--ignore-revs-file": "reads a file from anywhere",
  "--exclude-from": "reads a file from anywhere",
  "--exclude-per-directory": "reads files the repository names",
  "--show-signature": "runs gpg",
  "--dirty": "rewrites the repository's index",
  "--broken": "rewrites the repository's index",
  "--stdin": "reads standard input",
  "--end-of-options": "is not needed: lore parses every option itself; put paths after --",
  "--paginate": "runs a pager",
  "--remerge-diff": "writes objects while it works",
};

/** Per subcommand, options whose short name means "read a file" or "write" there. */
export const DENIED_IN: Record<string, Record<string, string>> = {
  blame: { "-S": "reads a revisions file from anywhere" },
  grep: { "-f": "reads patterns from a file anywhere", "-C": "is refused (use --context=N)" },
};

/** The options with which git branch and git tag read their names as patterns to list (git's own rule, checked by experiment on 2.39): any other use of a name creates a ref. */
export const LISTS: Record<string, string[]> = {
  branch: ["--list", "-l", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"],
  tag: ["--list", "-l", "-n", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"],
};

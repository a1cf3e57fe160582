/** The task benchmark's kinds of task about provenance: which PR brought a line, which release first shipped a change, how much agents wrote, who should review. */
import { agentOfCommit } from "../../src/index/agents.ts";
import { compareReleases, releaseName } from "../../src/index/release-tags.ts";
import { isNoiseByName } from "../../src/queries/run/noise-files.ts";
import { gitLines, pick, sh, type RepoFacts } from "./tasks-repo.ts";
import { q, sameSha, tries, type Kind } from "./tasks-kind.ts";

const PR_SUBJECT = /^Merge pull request #(\d+) from |\(#(\d+)\)\s*$/;

/** The change request git's history gives a commit: its own subject, else the oldest pull-request merge whose M^1..M^2 holds it. */
function prOf(dir: string, sha: string): number | undefined {
  const own = PR_SUBJECT.exec(sh(dir, `git log -1 --format=%s ${sha}`).trim());
  if (own) return Number(own[1] ?? own[2]);
  for (const line of gitLines(dir, ["log", "--merges", "--ancestry-path", "--topo-order", "--reverse", "--format=%H %s", `${sha}..HEAD`])) {
    const m = /^Merge pull request #(\d+) from /.exec(line.slice(41));
    if (!m) continue;
    const inFirst = Bun.spawnSync(["git", "merge-base", "--is-ancestor", sha, `${line.slice(0, 40)}^1`], { cwd: dir }).exitCode === 0;
    if (!inFirst) return Number(m[1]);
  }
  return undefined;
}

/** The commit git blame gives one line. */
function blameLine(dir: string, path: string, line: number): string {
  return /^([0-9a-f]{40})/.exec(sh(dir, `git blame --porcelain -L ${line},${line} -- ${q(path)}`))![1]!;
}

const linePr: Kind = {
  name: "which PR brought this line",
  draw: (f) =>
    tries(20, () => {
      const x = pick(f, f.files.filter((x) => x.lines >= 10 && x.commits >= 3 && x.lines < 5000));
      if (!x) return undefined;
      const line = 1 + Math.floor(f.rand() * x.lines);
      const sha = blameLine(f.dir, x.path, line);
      return prOf(f.dir, sha) === undefined ? undefined : { kind: "", what: `${x.path}:${line}`, path: x.path, line, sha };
    }),
  git(t, run) {
    // blame the line, read the commit's subject; a commit of a merged branch: the merges above it, oldest first.
    const sha = /^\^?([0-9a-f]{7,40})/.exec(run(`git blame -L ${t.line},${t.line} -- ${q(t.path as string)}`))![1]!;
    const subject = run(`git log -1 --format=%s ${sha}`);
    if (!PR_SUBJECT.test(subject.trim())) run(`git log --merges --ancestry-path --oneline ${sha}..HEAD | tail -n 5`);
  },
  lore: async (t, call) => void (await call("blame", { path: t.path, startLine: t.line, endLine: t.line })),
  check(t, f, [b]) {
    const truth = prOf(f.dir, t.sha as string);
    const entry = Object.entries(b?.commits ?? {}).find(([sha]) => sameSha(sha, t.sha as string));
    if (!entry) return [`no commit ${(t.sha as string).slice(0, 12)}`];
    const v: any = entry[1];
    // The model's copy leaves out a pr its subject says ("… (#123)", "Merge pull request #123 from …"): the subject is read then.
    // (A range one commit wrote whole has its provenance beside the row, as the answer's.)
    const said = b.pr ?? (Array.isArray(v) ? v.find((x: any) => x && typeof x === "object")?.pr : v?.pr);
    const subject = PR_SUBJECT.exec(String(Array.isArray(v) ? v[2] : v?.subject));
    const pr = said ?? (subject ? Number(subject[1] ?? subject[2]) : undefined);
    return pr === truth ? [] : [`pr ${pr} vs git ${truth}`];
  },
};

/** The earliest release tag (version order) git tag --contains lists, or "unreleased"; undefined where the repository has none. */
function firstRelease(dir: string, sha: string): string | undefined {
  const all = gitLines(dir, ["tag", "--list"]).flatMap((t) => releaseName(t) ?? []);
  if (all.filter((n) => n.family === "").length === 0) return undefined;
  const holding = gitLines(dir, ["tag", "--contains", sha]).flatMap((t) => releaseName(t) ?? []).filter((n) => n.family === "");
  return holding.sort(compareReleases)[0]?.tag ?? "unreleased";
}

/**
 * The provenance of a line (issue 40): the release that first shipped it. Drawn as a line, as the
 * PR's kind is: asked of a commit id alone, git's answer is its list of tags, which no answer that
 * also says the commit can undercut (lore's log row for it cost 2-3× git's tags on hono).
 */
const release: Kind = {
  name: "which release first shipped this line",
  draw: (f) =>
    tries(20, () => {
      const x = pick(f, f.files.filter((x) => x.lines >= 10 && x.commits >= 3 && x.lines < 5000));
      if (!x) return undefined;
      const line = 1 + Math.floor(f.rand() * x.lines);
      const sha = blameLine(f.dir, x.path, line);
      return firstRelease(f.dir, sha) ? { kind: "", what: `${x.path}:${line}`, path: x.path, line, sha } : undefined;
    }),
  git(t, run) {
    // blame the line, then the release tags holding its commit, oldest version first.
    const sha = /^\^?([0-9a-f]{7,40})/.exec(run(`git blame -L ${t.line},${t.line} -- ${q(t.path as string)}`))![1]!;
    run(`git tag --contains ${sha} --sort=v:refname | head -n 5`);
  },
  lore: async (t, call) => void (await call("blame", { path: t.path, startLine: t.line, endLine: t.line })),
  check(t, f, [b]) {
    const truth = firstRelease(f.dir, t.sha as string)!;
    const entry = Object.entries(b?.commits ?? {}).find(([sha]) => sameSha(sha, t.sha as string));
    if (!entry) return [`no commit ${(t.sha as string).slice(0, 12)}`];
    const v: any = entry[1];
    const said = b.release ?? (Array.isArray(v) ? v.find((x: any) => x && typeof x === "object")?.release : v?.release);
    return said === truth ? [] : [`release ${said} vs git ${truth}`];
  },
};

/** Lines per agent of git blame over the folder's text files, each commit's agent read from its author and message with git log. */
function agentLines(f: RepoFacts, path: string): Map<string, number> {
  const agents = new Map<string, string>();
  for (const rec of sh(f.dir, `git log --format='%H%x00%aN%x00%aE%x00%B%x1e' -- ${q(path)}`).split("\x1e").filter((r) => r.trim())) {
    const [sha, name, email, body] = rec.replace(/^\n/, "").split("\0") as [string, string, string, string];
    const a = agentOfCommit(name, email, body);
    if (a) agents.set(sha, a.agent);
  }
  const out = new Map<string, number>();
  for (const x of f.files.filter((x) => x.path.startsWith(path + "/"))) {
    for (const m of sh(f.dir, `git blame --porcelain HEAD -- ${q(x.path)}`).matchAll(/^([0-9a-f]{40}) \d+ \d+ (\d+)$/gm)) {
      const a = agents.get(m[1]!);
      if (a) out.set(a, (out.get(a) ?? 0) + Number(m[2]));
    }
  }
  return out;
}

const agentShare: Kind = {
  name: "how much of this folder did agents write",
  draw: (f) => {
    const x = pick(f, f.folders.filter((d) => d.commits >= 10 && d.files <= 60 && !f.files.some((y) => y.path.startsWith(d.path + "/") && isNoiseByName(y.path))));
    return x && { kind: "", what: `${x.path}/`, path: x.path };
  },
  git(t, run) {
    // The commits crediting an agent (trailers, Generated with lines), then every line's commit.
    run(`git log -i -E --format=%h --grep='^co-authored-by: .*(claude|copilot|cursor|codex|gemini|devin|aider)' --grep='generated with' -- ${q(t.path as string)}`);
    run(`git ls-files -z -- ${q(t.path as string)} | xargs -0 -n1 git blame --line-porcelain HEAD -- | grep -E '^[0-9a-f]{40} ' | cut -c1-12 | sort | uniq -c | sort -rn`);
  },
  // Ranked by lines written with an agent: the agents' lines, and those people.
  lore: async (t, call) => void (await call("contributors", { path: t.path, by: "agent" })),
  check(t, f, [c]) {
    const truth = Object.fromEntries(agentLines(f, t.path as string));
    const mine = Object.fromEntries(Object.entries(c?.agents ?? {}).map(([a, v]: [string, any]) => [a, typeof v === "number" ? v : v.lines]));
    return JSON.stringify(mine) === JSON.stringify(truth) ? [] : [`agents ${JSON.stringify(mine)} vs git ${JSON.stringify(truth)}`];
  },
};

const reviewer: Kind = {
  name: "who should review this file",
  draw: (f) => {
    const x = pick(f, f.files.filter((x) => x.lines >= 20 && x.commits >= 5 && x.lines < 5000));
    return x && { kind: "", what: x.path, path: x.path };
  },
  git(t, run) {
    run("cat .github/CODEOWNERS CODEOWNERS docs/CODEOWNERS .gitlab/CODEOWNERS 2>/dev/null; true");
    run(`git blame --line-porcelain HEAD -- ${q(t.path as string)} | sed -n 's/^author //p' | sort | uniq -c | sort -rn | head -n 5`);
  },
  lore: async (t, call) => void (await call("owners", { path: t.path })),
  check(t, f, [o]) {
    const counts = new Map<string, number>();
    for (const m of sh(f.dir, `git blame --line-porcelain HEAD -- ${q(t.path as string)}`).matchAll(/^author (.*)$/gm)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
    const top = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
    // git blame's names are raw (Tj and TJ are two); lore names a person once: the name compared without case.
    return top && !JSON.stringify(o ?? {}).toLowerCase().includes(JSON.stringify(top).slice(1, -1).toLowerCase()) ? [`the main author ${top} is not named`] : [];
  },
};

export const PROVENANCE_KINDS: Kind[] = [linePr, release, agentShare, reviewer];

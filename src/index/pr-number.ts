/** The change request a commit's own message names: a squash subject's `(#N)`, GitHub's merge subject, GitLab's merge trailer. Pure. */

const SQUASH = /\(#(\d{1,9})\)\s*$/;
const GITHUB_MERGE = /^Merge pull request #(\d{1,9}) from /;
const GITLAB_MERGE = /^See merge request [^\s!]+!(\d{1,9})\s*$/m;

/** The number the message names, or undefined: only these three forms, never a `#N` mentioned in passing. */
export function ownPr(subject: string, message: string): number | undefined {
  const m = GITHUB_MERGE.exec(subject) ?? SQUASH.exec(subject) ?? GITLAB_MERGE.exec(message);
  return m ? Number(m[1]) : undefined;
}

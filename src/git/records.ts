/** The records git's output is parsed into: plain data, no I/O. */

export type ChangeStatus = "A" | "C" | "D" | "M" | "R" | "T" | "U" | "X";

export interface FileChange {
  status: ChangeStatus;
  /** The path after the change (for D: the deleted path). */
  path: string;
  /** The source path of a rename or copy. */
  oldPath?: string;
  /** Similarity score of a rename or copy, 0–100. */
  score?: number;
  oldMode: string;
  newMode: string;
  oldBlob: string;
  newBlob: string;
}

export interface CommitRecord {
  sha: string;
  parents: string[];
  author: string;
  email: string;
  /** Author time, Unix seconds. */
  time: number;
  /** Committer time, Unix seconds. */
  commitTime: number;
  subject: string;
  message: string;
  changes: FileChange[];
}

export interface NumstatEntry {
  path: string;
  oldPath?: string;
  /** null for a binary file (git prints "-"). */
  additions: number | null;
  deletions: number | null;
}

export interface NumstatRecord {
  sha: string;
  entries: NumstatEntry[];
}

export interface TreeEntry {
  mode: string;
  type: "blob" | "tree" | "commit";
  blob: string;
  /** Size in bytes; null for submodules (type commit). */
  size: number | null;
  path: string;
}

export interface BlameHunk {
  /** First and last line in the blamed revision, 1-based inclusive. */
  start: number;
  end: number;
  sha: string;
  origPath: string;
  origStart: number;
}

export interface BlameCommit {
  author: string;
  email: string;
  /** Author time, Unix seconds. */
  time: number;
  subject: string;
  /** True when git could not look past this commit (a shallow clone's edge). */
  boundary?: boolean;
}

export interface BlameResult {
  hunks: BlameHunk[];
  commits: Record<string, BlameCommit>;
  lines: number;
  /** The content had a NUL byte in its first 8,000 bytes: git's own binary test. */
  binary: boolean;
}

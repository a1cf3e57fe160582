/** The data a report page draws: made by src/report/data.ts, embedded in the page as JSON. */

export interface ReportFile {
  path: string;
  lines: number;
  /** Commits that changed the file in the window. */
  changes: number;
  /** The author of most of its lines now, and their share. */
  author?: string;
  share?: number;
}

export interface FileDetail {
  cochange: { path: string; count: number; confidence: number }[];
  /** Commits in the window that touched the file. */
  cochangeCommits: number;
  history: { sha: string; time: string; author: string; subject: string }[];
  /** Commits that ever changed the file (following renames). */
  commits: number;
}

export interface FolderOwner {
  path: string;
  author: string;
  share: number;
  authors: number;
  lines: number;
  island: boolean;
}

export interface ReportData {
  repo: string;
  /** The folder reported on ("" for the whole repository). */
  path: string;
  rev: string;
  window: { commits: number; since?: string };
  /** Largest first. */
  files: ReportFile[];
  /** Files with lines beyond the treemap's limit. */
  filesLeftOut: number;
  /** The tree has more files than hotspots lists: the map shows the most changed ones. */
  mostChanged?: boolean;
  details: Record<string, FileDetail>;
  graph: { nodes: { path: string; changes: number; score: number }[]; links: { source: string; target: string; count: number }[] };
  folders: FolderOwner[];
  /** [Monday of the week, commits that week], oldest first. */
  weeks: [string, number][];
  /** A shallow clone: where its history stops (the questions' historyStops), and how to get the rest. */
  historyStops?: { at: Record<string, string>; more?: number; get: string };
}

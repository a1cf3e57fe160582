/** SQL of a commit's provenance: its change request and agent (commit_marks), its first release, the agents git notes name. */
import type { SqlDatabase } from "../runtime/index.ts";
import { objectBytes } from "./tree-store.ts";

export interface CommitMark {
  pr?: number;
  agent?: string;
  signal?: string;
}

export interface ReleaseTag {
  tag: string;
  family: string;
  folder: string | null;
}

/** A commit as the marking pass reads it. */
export interface MarkSource {
  id: number;
  sha: string;
  parents: string;
  author: string;
  email: string;
  subject: string;
  message: string;
}

function hex(v: unknown): string {
  return Buffer.from(v as Uint8Array).toString("hex");
}

export class ProvenanceStore {
  constructor(private readonly db: SqlDatabase) {}

  /** Commits with an id above `after`, in id order, as the marking pass reads them. */
  commitsAfter(after: number, limit: number): MarkSource[] {
    return this.db
      .prepare("SELECT id, sha, parents, author, email, subject, message FROM commits WHERE id > ? ORDER BY id LIMIT ?")
      .all(after, limit)
      .map((r) => ({ id: Number(r.id), sha: String(r.sha), parents: String(r.parents), author: String(r.author), email: String(r.email), subject: String(r.subject), message: String(r.message) }));
  }

  /** The one indexed commit whose id starts with `prefix` (hex), or undefined (none, or ambiguous). */
  commitIdByPrefix(prefix: string): number | undefined {
    const rows = this.db.prepare("SELECT id FROM commit_rows WHERE hex(sha) LIKE ? LIMIT 2").all(`${prefix.toUpperCase()}%`);
    return rows.length === 1 ? Number(rows[0]!.id) : undefined;
  }

  /** Every indexed commit's id and parents (the graph a merge's branch is walked in). */
  graph(): { id: number; sha: string; parents: string }[] {
    return this.db.prepare("SELECT id, sha, parents FROM commits").all().map((r) => ({ id: Number(r.id), sha: String(r.sha), parents: String(r.parents) }));
  }

  /** The ids of commits that have a change request already. */
  withPr(): Set<number> {
    return new Set(this.db.prepare("SELECT commit_id FROM commit_marks WHERE pr IS NOT NULL").all().map((r) => Number(r.commit_id)));
  }

  /** Merges with a change request, by id. */
  prMerges(ids: number[]): Map<number, number> {
    const out = new Map<number, number>();
    const st = this.db.prepare("SELECT pr FROM commit_marks WHERE commit_id = ? AND pr IS NOT NULL");
    for (const id of ids) {
      const r = st.get(id);
      if (r) out.set(id, Number(r.pr));
    }
    return out;
  }

  /** Records a commit's own marks. Call inside a transaction. */
  mark(commitId: number, m: CommitMark): void {
    this.db.prepare("INSERT OR REPLACE INTO commit_marks (commit_id, pr, agent, signal) VALUES (?, ?, ?, ?)").run(commitId, m.pr ?? null, m.agent ?? null, m.signal ?? null);
  }

  /** Gives a commit without one the change request of the merge that brought it in. Call inside a transaction. */
  inheritPr(commitId: number, pr: number): void {
    this.db.prepare("INSERT INTO commit_marks (commit_id, pr) VALUES (?, ?) ON CONFLICT (commit_id) DO UPDATE SET pr = excluded.pr WHERE pr IS NULL").run(commitId, pr);
  }

  /** The marks of a commit (by its full id), git notes' agent included. */
  marksOf(sha: string): CommitMark | undefined {
    const r = this.db.prepare("SELECT m.pr, m.agent, m.signal FROM commit_marks m JOIN commit_rows c ON c.id = m.commit_id WHERE c.sha = ?").get(objectBytes(sha));
    const note = this.db.prepare("SELECT agent, signal FROM note_agents WHERE sha = ?").get(objectBytes(sha));
    if (!r && !note) return undefined;
    const out: CommitMark = {};
    if (r?.pr !== null && r?.pr !== undefined) out.pr = Number(r.pr);
    if (r?.agent) [out.agent, out.signal] = [String(r.agent), String(r.signal)];
    else if (note) [out.agent, out.signal] = [String(note.agent), String(note.signal)];
    return out;
  }

  /** Replaces the release tags and the first release of each commit they hold. Call inside a transaction. */
  replaceReleases(tags: ReleaseTag[], firsts: Map<string, Map<string, string>>): void {
    this.db.exec("DELETE FROM release_commits");
    this.db.exec("DELETE FROM releases");
    const ids = new Map<string, number>();
    const add = this.db.prepare("INSERT INTO releases (tag, family, folder) VALUES (?, ?, ?) RETURNING id");
    for (const t of tags) ids.set(t.tag, Number(add.get(t.tag, t.family, t.folder)!.id));
    const put = this.db.prepare("INSERT INTO release_commits (sha, family, release_id) VALUES (?, ?, ?)");
    for (const [family, bySha] of firsts) for (const [sha, tag] of bySha) put.run(objectBytes(sha), family, ids.get(tag)!);
  }

  /** The release families and the folder of each (null: not known to be a package's). */
  families(): Map<string, string | null> {
    const out = new Map<string, string | null>();
    for (const r of this.db.prepare("SELECT DISTINCT family, folder FROM releases").all()) out.set(String(r.family), r.folder === null ? null : String(r.folder));
    return out;
  }

  /** The first release of `family` that holds the commit, or undefined. */
  releaseOf(sha: string, family: string): string | undefined {
    const r = this.db.prepare("SELECT r.tag FROM release_commits rc JOIN releases r ON r.id = rc.release_id WHERE rc.sha = ? AND rc.family = ?").get(objectBytes(sha), family);
    return r ? String(r.tag) : undefined;
  }

  /** Replaces what git notes say of agents. Call inside a transaction. */
  replaceNoteAgents(rows: { sha: string; agent: string; signal: string }[]): void {
    this.db.exec("DELETE FROM note_agents");
    const put = this.db.prepare("INSERT OR IGNORE INTO note_agents (sha, agent, signal) VALUES (?, ?, ?)");
    for (const r of rows) put.run(objectBytes(r.sha), r.agent, r.signal);
  }

  /** The commits (full ids) each agent is credited with, among the indexed ones and the notes. */
  agentCommits(): Map<string, string> {
    const out = new Map<string, string>();
    for (const r of this.db.prepare("SELECT sha, agent FROM note_agents").all()) out.set(hex(r.sha), String(r.agent));
    for (const r of this.db.prepare("SELECT c.sha, m.agent FROM commit_marks m JOIN commit_rows c ON c.id = m.commit_id WHERE m.agent IS NOT NULL").all()) out.set(hex(r.sha), String(r.agent));
    return out;
  }
}

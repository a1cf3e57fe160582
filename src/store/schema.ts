/** The index's tables, versioned: each migration takes the file from one version to the next. */

export const SCHEMA_VERSION = 2;

/** MIGRATIONS[i] takes a database from version i to i + 1. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE commits (
    id INTEGER PRIMARY KEY,
    sha TEXT NOT NULL UNIQUE,
    parents TEXT NOT NULL,
    author TEXT NOT NULL,
    email TEXT NOT NULL,
    time INTEGER NOT NULL,
    commit_time INTEGER NOT NULL,
    subject TEXT NOT NULL,
    message TEXT NOT NULL,
    nfiles INTEGER NOT NULL,
    churn INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE paths (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);
  CREATE TABLE changes (
    commit_id INTEGER NOT NULL,
    path_id INTEGER NOT NULL,
    status TEXT NOT NULL,
    old_path_id INTEGER,
    additions INTEGER,
    deletions INTEGER,
    PRIMARY KEY (commit_id, path_id)
  ) WITHOUT ROWID;
  CREATE INDEX changes_by_path ON changes (path_id, commit_id);
  -- The commits reachable from the indexed head in git log's default order: smaller seq is newer.
  CREATE TABLE reach (seq INTEGER PRIMARY KEY, commit_id INTEGER NOT NULL);
  CREATE UNIQUE INDEX reach_by_commit ON reach (commit_id);
  -- The tree of the indexed head.
  CREATE TABLE tree (path_id INTEGER PRIMARY KEY, mode TEXT NOT NULL, type TEXT NOT NULL, blob TEXT NOT NULL, size INTEGER);
  -- Line counts of blobs; lines is NULL for a binary blob.
  CREATE TABLE blob_lines (blob TEXT PRIMARY KEY, lines INTEGER) WITHOUT ROWID;
  CREATE TABLE blames (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    path TEXT NOT NULL,
    blob TEXT,
    lines INTEGER NOT NULL,
    binary INTEGER NOT NULL,
    boundary TEXT NOT NULL DEFAULT '',
    used_at INTEGER NOT NULL
  );
  CREATE TABLE blame_hunks (
    blame_id INTEGER NOT NULL,
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    sha TEXT NOT NULL,
    orig_path TEXT NOT NULL,
    orig_start INTEGER NOT NULL,
    PRIMARY KEY (blame_id, start)
  ) WITHOUT ROWID;
  CREATE INDEX blames_by_path ON blames (path, blob);
  -- Where git log --follow continues past a file's creation (a copy it finds): null old_path_id when nowhere.
  CREATE TABLE follow_origins (
    commit_id INTEGER NOT NULL,
    path_id INTEGER NOT NULL,
    status TEXT NOT NULL,
    old_path_id INTEGER,
    additions INTEGER,
    deletions INTEGER,
    PRIMARY KEY (commit_id, path_id)
  ) WITHOUT ROWID;
  CREATE TABLE blame_commits (
    sha TEXT PRIMARY KEY,
    author TEXT NOT NULL,
    email TEXT NOT NULL,
    time INTEGER NOT NULL,
    subject TEXT NOT NULL
  ) WITHOUT ROWID;
  `,
  // Search (issue 12): commit messages in FTS5 (filled up to the newest commit id before a search
  // and in the background, never while history is indexed: meta messagesIndexed), line histories (git log -L) cached by path, last change, blob and range,
  // and the change index that narrows git log -S to a few candidate commits.
  `
  CREATE VIRTUAL TABLE message_fts USING fts5(message, content='commits', content_rowid='id', tokenize="unicode61 remove_diacritics 2 tokenchars '_'");
  CREATE TABLE line_histories (key TEXT PRIMARY KEY, answer TEXT NOT NULL, used_at INTEGER NOT NULL) WITHOUT ROWID;
  -- The change index: for each commit, the words (runs of [A-Za-z0-9_], 3+ long) whose number of
  -- occurrences its diff changed in some file, as posting lists: per word and batch of the pass,
  -- the commit ids ascending, delta-encoded varints (a row per word and commit took 6x the bytes).
  -- Commits that changed a binary file are always candidates.
  CREATE TABLE code_words (id INTEGER PRIMARY KEY, word TEXT NOT NULL UNIQUE);
  CREATE TABLE code_postings (word_id INTEGER NOT NULL, batch INTEGER NOT NULL, commits BLOB NOT NULL, PRIMARY KEY (word_id, batch)) WITHOUT ROWID;
  CREATE TABLE code_binary (commit_id INTEGER PRIMARY KEY);
  `,
];

/** The index's tables, versioned: each migration takes the file from one version to the next. */

export const SCHEMA_VERSION = 10;

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
  // 2: what repeated as text is stored once (issue 14). Blame hunks name their commit and original
  // path by integer id, people (commits' and blames') are a table, commit ids are bytes, blob ids and blame keys are bytes, and a
  // commit's message no longer repeats its subject. The index is rebuilt from git (status says so):
  // one transaction, so a kill during it leaves the version-1 file as it was.
  `
  DROP TABLE blame_hunks;
  DROP TABLE blames;
  DROP TABLE blame_commits;
  DROP TABLE blob_lines;
  DROP TABLE tree;
  DROP TABLE follow_origins;
  DROP TABLE reach;
  DROP TABLE changes;
  DROP TABLE paths;
  DROP TABLE commits;
  -- Said in status only when there was an index to rebuild (a new file passes through here too).
  INSERT OR REPLACE INTO meta (key, value) SELECT 'rebuilt', strftime('%Y-%m-%dT%H:%M:%fZ', 'now') || ' the index format changed (schema 2, about half the size): rebuilt from git'
    WHERE EXISTS (SELECT 1 FROM meta WHERE key = 'indexedHead');
  DELETE FROM meta WHERE key NOT IN ('repoRoot', 'rebuilt');
  -- People (author name and email, as the mailmap gives them) once, for commits and blames.
  CREATE TABLE people (id INTEGER PRIMARY KEY, author TEXT NOT NULL, email TEXT NOT NULL, UNIQUE (author, email));
  -- Commits as stored: ids as bytes, people by id, the message without its subject. Read them through the commits view.
  CREATE TABLE commit_rows (
    id INTEGER PRIMARY KEY,
    sha BLOB NOT NULL UNIQUE,
    -- One or two parents as bytes; parents_text only for a merge of more than two.
    parent_bytes BLOB,
    parents_text TEXT,
    person_id INTEGER NOT NULL,
    time INTEGER NOT NULL,
    commit_time INTEGER NOT NULL,
    subject TEXT NOT NULL,
    -- The message after its subject (NULL: nothing after it); message_text only when it does not start with the subject.
    message_rest TEXT,
    message_text TEXT,
    nfiles INTEGER NOT NULL,
    churn INTEGER NOT NULL DEFAULT 0
  );
  -- The commits as every query reads them (the columns of schema 1). Look one up by sha through
  -- HistoryStore (commit_rows.sha is bytes): "WHERE sha = ?" on the view reads every row.
  CREATE VIEW commits AS
    SELECT c.id AS id, lower(hex(c.sha)) AS sha,
           coalesce(c.parents_text, CASE length(c.parent_bytes)
             WHEN 20 THEN lower(hex(c.parent_bytes))
             WHEN 32 THEN lower(hex(c.parent_bytes))
             WHEN 40 THEN lower(hex(substr(c.parent_bytes, 1, 20))) || ' ' || lower(hex(substr(c.parent_bytes, 21, 20)))
             WHEN 64 THEN lower(hex(substr(c.parent_bytes, 1, 32))) || ' ' || lower(hex(substr(c.parent_bytes, 33, 32)))
             ELSE '' END) AS parents,
           p.author AS author, p.email AS email, c.time AS time, c.commit_time AS commit_time, c.subject AS subject,
           coalesce(c.message_text, c.subject || coalesce(c.message_rest, '')) AS message,
           c.nfiles AS nfiles, c.churn AS churn
      FROM commit_rows c JOIN people p ON p.id = c.person_id;
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
  CREATE TABLE reach (seq INTEGER PRIMARY KEY, commit_id INTEGER NOT NULL);
  CREATE UNIQUE INDEX reach_by_commit ON reach (commit_id);
  -- blob: the object id as bytes.
  CREATE TABLE tree (path_id INTEGER PRIMARY KEY, mode TEXT NOT NULL, type TEXT NOT NULL, blob BLOB NOT NULL, size INTEGER);
  CREATE TABLE blob_lines (blob BLOB PRIMARY KEY, lines INTEGER) WITHOUT ROWID;
  CREATE TABLE follow_origins (
    commit_id INTEGER NOT NULL,
    path_id INTEGER NOT NULL,
    status TEXT NOT NULL,
    old_path_id INTEGER,
    additions INTEGER,
    deletions INTEGER,
    PRIMARY KEY (commit_id, path_id)
  ) WITHOUT ROWID;
  -- key: sha-1 of the cache key (path, content, history, ignore list); blob as bytes.
  CREATE TABLE blames (
    id INTEGER PRIMARY KEY,
    key BLOB NOT NULL UNIQUE,
    path_id INTEGER NOT NULL,
    blob BLOB,
    lines INTEGER NOT NULL,
    binary INTEGER NOT NULL,
    boundary TEXT NOT NULL DEFAULT '',
    used_at INTEGER NOT NULL
  );
  CREATE INDEX blames_by_path ON blames (path_id, blob);
  -- The commits blames name: the commits table may not hold them (a capped or shallow history).
  CREATE TABLE blame_commits (
    id INTEGER PRIMARY KEY,
    sha BLOB NOT NULL UNIQUE,
    person_id INTEGER NOT NULL,
    time INTEGER NOT NULL,
    subject TEXT NOT NULL
  );
  -- commit_id: blame_commits.id; orig_path_id: NULL when the line has the blamed path's name.
  CREATE TABLE blame_hunks (
    blame_id INTEGER NOT NULL,
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    commit_id INTEGER NOT NULL,
    orig_path_id INTEGER,
    orig_start INTEGER NOT NULL,
    PRIMARY KEY (blame_id, start)
  ) WITHOUT ROWID;
  `,
  // 3: log's merge paths (issue 11).
  `
  -- Which paths a merge changed against each parent (git diff-tree, no renames): whether git log -- PATH
  -- follows a side branch (history simplification) is answered from these. merge_diffs says how many
  -- parents are done: the first parent's always, the others' (often long) only where a walk needed them.
  CREATE TABLE merge_paths (commit_id INTEGER NOT NULL, parent INTEGER NOT NULL, path_id INTEGER NOT NULL, PRIMARY KEY (commit_id, parent, path_id)) WITHOUT ROWID;
  CREATE TABLE merge_diffs (commit_id INTEGER PRIMARY KEY, parents INTEGER NOT NULL);
  -- A file moved out of a folder is a change under it too (git log -- DIR lists the commit).
  CREATE INDEX changes_by_old_path ON changes (old_path_id) WHERE old_path_id IS NOT NULL;
  `,
  // 4: search (issue 12): commit messages in FTS5 (filled up to the newest commit id before a search
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
  // 5: the change index answers code search by itself (issue 12): each posting names the files of
  // the commit and counts the word on their added and removed lines (code-postings.ts). Commits git
  // must confirm are code_unsure (always: a candidate of every search, e.g. a binary blob too large to read).
  // The pass fills it again from git.
  `
  DROP TABLE code_postings;
  DROP TABLE code_binary;
  DROP TABLE code_words;
  -- One b-tree each: words by their text; lists by batch × 2^32 + word id (a batch's lists are
  -- written in word order, so pages fill, and a rowid table keeps lists of up to 4 KB in its pages).
  CREATE TABLE code_words (word TEXT PRIMARY KEY, id INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TABLE code_postings (key INTEGER PRIMARY KEY, entries BLOB NOT NULL);
  CREATE TABLE code_unsure (commit_id INTEGER PRIMARY KEY, always INTEGER NOT NULL);
  DELETE FROM meta WHERE key = 'codeHead';
  `,
  // 6: message search ranks without bm25 (issue 12): subject and body are columns of their own, so
  // a search knows which commits say every word in their subject, and each message's length in
  // words is in the FTS docsize (message-order.ts). Filled again before the next search.
  `
  DROP TABLE message_fts;
  -- body: the message after its subject (the whole message where it does not start with the subject).
  CREATE VIEW message_parts AS SELECT id, subject, coalesce(message_text, message_rest) AS body FROM commit_rows;
  CREATE VIRTUAL TABLE message_fts USING fts5(subject, body, content='message_parts', content_rowid='id', tokenize="unicode61 remove_diacritics 2 tokenchars '_'");
  DELETE FROM meta WHERE key = 'messagesIndexed';
  `,
  // 7: code search reads the change index a batch at a time, newest first (issue 12), and stops
  // when the batches left are older than its answer: each batch's commits are kept. The pass fills it again.
  `
  CREATE TABLE code_batches (batch INTEGER PRIMARY KEY, commits BLOB NOT NULL);
  DELETE FROM code_postings;
  DELETE FROM code_words;
  DELETE FROM code_unsure;
  DELETE FROM meta WHERE key IN ('codeHead', 'codeWords', 'codeBatches');
  `,
  // 8: cached blames may be wrong (issue 23): the single-commit shortcut answered files a rename
  // pairing or a merge made otherwise, and git blame ran textconv drivers. The pass blames again.
  `
  DELETE FROM blame_hunks;
  DELETE FROM blame_commits;
  DELETE FROM blames;
  `,
  // 9: blames git could not make (issue 23: an object missing from a damaged clone), by the blame's
  // cache key, so a restarted daemon or a new CLI process does not ask git again; kept for a while
  // (blame-failures.ts), then asked again in case the clone was repaired.
  `
  CREATE TABLE blame_failures (key BLOB PRIMARY KEY, path TEXT NOT NULL, code TEXT NOT NULL, message TEXT NOT NULL, at INTEGER NOT NULL) WITHOUT ROWID;
  `,
  // 10: provenance (issue 40), additive: filled by the next update (meta provenanceThrough, releaseTags, agentNotes unset); IF NOT EXISTS: an index another lore migrated part way keeps what it has.
  `
  -- What a commit's history says of it: the change request (its own message's number, or the merge
  -- that brought it in) and the coding agent credited (signal: what said so). Only commits with either.
  CREATE TABLE IF NOT EXISTS commit_marks (commit_id INTEGER PRIMARY KEY, pr INTEGER, agent TEXT, signal TEXT);
  -- Release tags (family: the name before @ in name@1.2.3, '' for v1.2.3; folder: the family's package, '' for the whole repository).
  CREATE TABLE IF NOT EXISTS releases (id INTEGER PRIMARY KEY, tag TEXT NOT NULL UNIQUE, family TEXT NOT NULL, folder TEXT);
  -- The first release (in version order) of each family that contains a commit, by the commit's id as bytes (a tag may hold commits the history index does not).
  CREATE TABLE IF NOT EXISTS release_commits (sha BLOB NOT NULL, family TEXT NOT NULL, release_id INTEGER NOT NULL, PRIMARY KEY (sha, family)) WITHOUT ROWID;
  -- The agent a provenance tool's git note (refs/notes/*) names for a commit.
  CREATE TABLE IF NOT EXISTS note_agents (sha BLOB PRIMARY KEY, agent TEXT NOT NULL, signal TEXT NOT NULL) WITHOUT ROWID;
  `,
];

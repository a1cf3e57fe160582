/** How status is answered: HEAD from the files, the index's own counts and state. */
import { failedBlames } from "../../index/blame.ts";
import { statSync } from "node:fs";
import { readHeadBranch, readHeadCommit } from "../../git/head-file.ts";
import { currentBranch, currentHead, isPartialClone, isShallow, type Repo } from "../../git/repo.ts";
import { MAX_WARM_BYTES } from "../../index/blame.ts";
import { pruneLimits, SnapshotStore } from "../../memory/store.ts";
import type { STATUS_ARGS, StatusOutput } from "../status.ts";
import type { QueryContext } from "../context.ts";
import type { Input } from "../define.ts";
import { noun } from "../../plural.ts";

function fileBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

export async function run(ctx: QueryContext, input: Input<typeof STATUS_ARGS>): Promise<StatusOutput> {
  const { index } = ctx;
  const { store } = index;
  // The files say where HEAD is without starting git; git is asked only when they cannot tell.
  const head = await currentHead(index.repo);
  const namedBranch = readHeadBranch(index.repo);
  const branch = namedBranch !== undefined ? namedBranch : await currentBranch(index.repo);
  const shallow = isShallow(index.repo);
  const indexedHead = store.meta("indexedHead") ?? null;
  const indexing = index.busy;
  // A linked worktree shares the index of its repository, which follows the main worktree's HEAD: fresh when that is indexed.
  // On an unborn branch (git checkout --orphan) the index keeps what it followed: empty only when there is none.
  const followed = (index.isPrimary ? head : (readHeadCommit(index.shared.primary) ?? head)) ?? indexedHead;
  const state = followed === null ? "empty" : indexing ? "indexing" : followed === indexedHead ? "fresh" : "stale";
  const capped = store.meta("truncated");
  const rebuilt = store.meta("rebuilt");
  const partialClone = isPartialClone(index.repo);
  const stops = store.meta("historyStops");
  const unread = failedBlames(index);
  const leftOut = [
    ...(unread.count ? [`blame of ${unread.count} file${unread.count === 1 ? "" : "s"} git cannot read (asked again in 10 minutes at the earliest), e.g. ${unread.first}`] : []),
    ...(store.meta("codeUnreadable") ? [`the change index of code search: git cannot read object ${store.meta("codeUnreadable")} (a damaged clone), so search --code asks git, which stops at it too; tried again once the object is back`] : []),
    ...(stops ? [`${stops} (the repository is damaged: lore keeps what it read before the damage and tries again only when HEAD moves)`] : []),
    ...(partialClone
      ? [
          "line churn of all history and blame of every file in the background: a partial clone lacks most old file contents, and lore never downloads them (a question that needs one says so)",
          "renames with edits: history follows exact renames only",
        ]
      : []),
  ];
  return {
    repo: index.repo.root,
    head,
    branch,
    indexedHead,
    state,
    commitsIndexed: store.history.reachBounds().count,
    churnComplete: indexedHead !== null && store.meta("churnHead") === indexedHead,
    filesTotal: store.tree.count(),
    filesBlamed: store.blame.blamedInTree(),
    filesUnblamable: store.blame.unblamableInTree(MAX_WARM_BYTES),
    indexing,
    lastIndexedAt: store.meta("lastIndexedAt") ?? null,
    shallow,
    ...(capped ? { maxCommits: Number(capped) } : {}),
    ...(rebuilt ? { rebuilt } : {}),
    ...(partialClone ? { partialClone } : {}),
    ...(leftOut.length ? { leftOut } : {}),
    ...(index.isPrimary ? {} : { indexFollows: index.shared.primary.root }),
    walksGit: walksGit(indexedHead, store.meta("codeHead") ?? null, store.tree.count() - store.blame.blamedInTree() - store.blame.unblamableInTree(MAX_WARM_BYTES)),
    dbPath: store.path,
    dbBytes: fileBytes(store.path) + fileBytes(store.path + "-wal"),
    daemon: ctx.daemon ?? null,
    snapshots: snapshotsOf(index.repo),
  };
}

/** Said up front, so an agent can choose: what walks git now, the rest is read from the index. */
function walksGit(indexedHead: string | null, codeHead: string | null, unblamed: number): string[] {
  if (indexedHead === null) return ["every question but blame, intent, show, history and search code waits for the first index", "search code: git log -S", "history -L: git log -L"];
  return [
    ...(codeHead !== indexedHead ? ["search code: git log -S, until the change index is built"] : []),
    "history -L: git log -L (then kept)",
    ...(unblamed > 0 ? [`blame, contributors, owners of the ${unblamed.toLocaleString("en-US")} ${noun(unblamed, "file")} not blamed yet: git blame (then kept)`] : []),
  ];
}

function snapshotsOf(repo: Repo): StatusOutput["snapshots"] {
  const store = new SnapshotStore(repo);
  const list = store.list();
  const { maxAgeHours, maxCount } = pruneLimits();
  return { count: list.length, newest: list[list.length - 1]?.time ?? null, bytes: store.bytes(), keepHours: maxAgeHours, keepCount: maxCount };
}

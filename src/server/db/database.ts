// Opens the run database (better-sqlite3) in WAL mode and applies schema migrations in order,
// tracked by PRAGMA user_version. Each migration runs in its own transaction, so a crash mid-upgrade
// leaves the previous version intact.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

const MIGRATIONS: readonly string[] = [
  // v1: runs, the append-only event log, content-addressed blobs, checkpoints, recorded effects.
  `
  CREATE TABLE runs (
    rid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    graph_name TEXT NOT NULL,
    graph_hash TEXT NOT NULL,
    status TEXT NOT NULL,
    steps INTEGER NOT NULL DEFAULT 0,
    last_seq INTEGER NOT NULL DEFAULT 0,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    parent_run_id TEXT,
    parent_step INTEGER,
    lineage TEXT NOT NULL,
    fresh_effects INTEGER NOT NULL DEFAULT 0,
    step_delay_ms INTEGER NOT NULL DEFAULT 0,
    error TEXT
  );
  CREATE INDEX runs_started ON runs(started_at);
  -- run = runs.rid (an integer keeps the biggest table and its index small); ts in epoch ms;
  -- enc = 1: data is a BlobStore root (big sub-values shared with checkpoints and other events);
  -- enc = 2: data is [shapes.id, ...values] (key names interned); enc = 0: plain JSON.
  CREATE TABLE events (
    run INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    ts INTEGER NOT NULL,
    step INTEGER,
    enc INTEGER NOT NULL DEFAULT 0,
    data TEXT NOT NULL,
    PRIMARY KEY (run, seq)
  );
  CREATE INDEX events_snap ON events(run, step, seq) WHERE type IN ('nav_step', 'restored');
  -- Content-addressed values: appended by rowid (sequential writes); the hash index dedups.
  CREATE TABLE blobs (
    id INTEGER PRIMARY KEY,
    hash BLOB NOT NULL UNIQUE,
    json TEXT NOT NULL
  );
  CREATE TABLE checkpoints (
    run INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    step INTEGER NOT NULL,
    root TEXT NOT NULL,
    PRIMARY KEY (run, seq)
  ) WITHOUT ROWID;
  CREATE INDEX checkpoints_step ON checkpoints(run, step, seq);
  CREATE TABLE shapes (
    id INTEGER PRIMARY KEY,
    keys TEXT NOT NULL UNIQUE
  );
  CREATE TABLE effects (
    key TEXT PRIMARY KEY,
    run_id TEXT NOT NULL,
    request TEXT NOT NULL,
    response TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) WITHOUT ROWID;
  `,
  // 2: batch evaluation (one row per batch, one per recorded episode; the primary key makes a
  // retried episode replace its row instead of adding one).
  `
  CREATE TABLE batches (
    id TEXT PRIMARY KEY,
    graph_name TEXT NOT NULL,
    graph TEXT NOT NULL,
    episodes INTEGER NOT NULL,
    workers INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    sets TEXT NOT NULL,
    mode TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    ended_at TEXT,
    error TEXT
  );
  CREATE TABLE batch_episodes (
    batch_id TEXT NOT NULL,
    episode INTEGER NOT NULL,
    row TEXT NOT NULL,
    PRIMARY KEY (batch_id, episode)
  ) WITHOUT ROWID;
  `,
  // 3: event pages (eventPages.ts) — a step's exec_log/node_status events in one compressed row,
  // keyed by the page's last seq so "events after seq N" finds the page holding N+1 first. Rows
  // written before this version stay in `events` and read as they always did (both are merged).
  `
  CREATE TABLE event_pages (
    run INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    first INTEGER NOT NULL,
    n INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (run, seq)
  ) WITHOUT ROWID;
  `,
  // 4: blob segments (blobSegment.ts, compaction.ts) — blob rows packed many to one compressed row,
  // keyed by the last blob id covered (a read finds the segment of id N as the first with last >= N).
  `
  CREATE TABLE blob_segments (
    last INTEGER PRIMARY KEY,
    first INTEGER NOT NULL,
    data BLOB NOT NULL
  );
  `,
  `
  -- Plain roots (a leading space: JSON written by a run driven flat out, BlobStore.putPlain) that
  -- compaction has yet to encode into blobs (plainEncoding.ts); rows leave these indexes as it does.
  CREATE INDEX IF NOT EXISTS events_plain ON events(run, seq) WHERE enc = 1 AND substr(data, 1, 1) = ' ';
  CREATE INDEX IF NOT EXISTS checkpoints_plain ON checkpoints(run, seq) WHERE substr(root, 1, 1) = ' ';
  `,
  // 6: graph versions (runs/graphVersion.ts: SHA-256 of the canonical save form) of every run and
  // batch; NULL for rows written before (shown as "—").
  `
  ALTER TABLE runs ADD COLUMN graph_version TEXT;
  ALTER TABLE batches ADD COLUMN graph_version TEXT;
  `,
  // 7: the run list's columns and indexes (runList.ts): each run's kind (run, fork, branch,
  // imported, episode) and batch, and one (filter, started_at, id) index per filter so that a page
  // of a filtered list is an index range, whatever the number of runs. Branch and imported rows of
  // older files are marked when the store opens (their marks live in tables created there).
  `
  ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'run';
  ALTER TABLE runs ADD COLUMN batch_id TEXT;
  UPDATE runs SET kind = 'fork' WHERE parent_run_id IS NOT NULL;
  UPDATE runs SET kind = 'episode', batch_id = substr(id, 1, length(rtrim(id, '0123456789')) - 2)
    WHERE id GLOB 'batch_*_e[0-9]*' AND rtrim(id, '0123456789') GLOB '*_e';
  CREATE INDEX runs_page ON runs(started_at, id);
  CREATE INDEX runs_graph_page ON runs(graph_name, started_at, id);
  CREATE INDEX runs_status_page ON runs(status, started_at, id);
  CREATE INDEX runs_kind_page ON runs(kind, started_at, id);
  CREATE INDEX runs_batch_page ON runs(batch_id, started_at, id) WHERE batch_id IS NOT NULL;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function openDatabase(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // A new database frees the pages compaction empties (PRAGMA incremental_vacuum), so packing a run
  // shrinks the file. Only possible before the first table; older files keep reusing freed pages.
  if (isEmpty(db)) db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  // NORMAL is durable against process crashes (kill -9) in WAL mode; FULL would also survive power loss.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 2000');
  // 64 MB page cache: keeps the hot B-tree pages (indexes, recent blobs) in memory during long runs.
  db.pragma('cache_size = -65536');
  migrate(db);
  return db;
}

function isEmpty(db: Db): boolean {
  return (db.prepare('SELECT COUNT(*) AS n FROM sqlite_master').get() as { n: number }).n === 0;
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length)
    throw new Error(
      `database schema version ${current} is newer than this statewire (${MIGRATIONS.length}); upgrade statewire`,
    );
  for (let v = current; v < MIGRATIONS.length; v++) {
    const sql = MIGRATIONS[v] ?? '';
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

/** Closes cleanly: folds the WAL back into the main file first. */
export function closeDatabase(db: Db): void {
  if (!db.open) return;
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

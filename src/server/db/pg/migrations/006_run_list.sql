-- 5: the run list (src/server/db/runList.ts, GET /api/runs), as SQLite migration 7: each run's
-- kind (run, fork, branch, imported, episode) and batch, and one (filter, started_at, id) index per
-- filter, so a keyset page of 50 among 100,000 runs is an index range whatever the filter. Ids
-- compare in the "C" collation, as SQLite compares them (bytewise), so a cursor means the same row
-- order on both stores.
ALTER TABLE runs ADD COLUMN kind text NOT NULL DEFAULT 'run';
ALTER TABLE runs ADD COLUMN batch_id text COLLATE "C";
UPDATE runs SET kind = 'fork' WHERE parent_run_id IS NOT NULL;
UPDATE runs SET kind = 'episode', batch_id = substring(id from '^(batch_.+)_e[0-9]+$')
  WHERE id ~ '^batch_.+_e[0-9]+$';
CREATE INDEX runs_page ON runs (started_at, (id COLLATE "C"));
CREATE INDEX runs_graph_page ON runs (graph_name, started_at, (id COLLATE "C"));
CREATE INDEX runs_status_page ON runs (status, started_at, (id COLLATE "C"));
CREATE INDEX runs_kind_page ON runs (kind, started_at, (id COLLATE "C"));
CREATE INDEX runs_batch_page ON runs (batch_id, started_at, (id COLLATE "C")) WHERE batch_id IS NOT NULL;

-- 3: graph versions (src/server/runs/graphVersion.ts: SHA-256 of the canonical save form) of every
-- run and batch, as SQLite migration 6; NULL for rows written before (shown as "—").
ALTER TABLE runs ADD COLUMN graph_version text;
ALTER TABLE batches ADD COLUMN graph_version text;

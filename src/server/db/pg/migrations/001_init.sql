-- 1: runs, the append-only event log, content-addressed blobs, checkpoints, recorded effects.
-- The same tables and columns as the SQLite schema (src/server/db/database.ts, migration 1), with
-- two deliberate differences:
--  * blobs are addressed by their hash (the primary key), not by a row id: a reference in an encoded
--    value is `{"$sw": "<base64url sha1>"}`, so a step's values are encoded without asking the
--    database for ids and all its new blobs go in with one statement; several workers writing the
--    same value at once store it once (ON CONFLICT DO NOTHING).
--  * no `shapes` table: small event payloads are stored as plain JSON text (enc = 0).
-- Encoded values are `text`, not `jsonb`: jsonb reorders object keys and the log must give back the
-- values exactly as they were written. Timestamps stay ISO text, as the store hands them out, in
-- the "C" collation so that they sort like SQLite's (bytewise) in any database locale.
CREATE TABLE runs (
  rid bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text NOT NULL UNIQUE,
  graph_name text NOT NULL,
  -- the root reference of the executed graph (JSON text of the encoded root, like checkpoints.root)
  graph_hash text NOT NULL,
  status text NOT NULL,
  steps bigint NOT NULL DEFAULT 0,
  last_seq bigint NOT NULL DEFAULT 0,
  started_at text COLLATE "C" NOT NULL,
  ended_at text,
  parent_run_id text,
  parent_step bigint,
  lineage text NOT NULL,
  fresh_effects boolean NOT NULL DEFAULT false,
  step_delay_ms integer NOT NULL DEFAULT 0,
  error text
);
CREATE INDEX runs_started ON runs (started_at);
CREATE INDEX runs_lineage ON runs (lineage);

-- run = runs.rid; ts in epoch ms; enc = 1: data is a blob root, enc = 0: plain JSON text.
CREATE TABLE events (
  run bigint NOT NULL,
  seq bigint NOT NULL,
  type text NOT NULL,
  ts bigint NOT NULL,
  step bigint,
  enc smallint NOT NULL DEFAULT 0,
  data text NOT NULL,
  PRIMARY KEY (run, seq)
);
CREATE INDEX events_snap ON events (run, step, seq) WHERE type IN ('nav_step', 'restored');

-- Exactly one of json (an encoded node) and bin (the raw bytes of a node-service array) is set.
CREATE TABLE blobs (
  hash bytea PRIMARY KEY,
  json text,
  bin bytea,
  CHECK ((json IS NULL) <> (bin IS NULL))
);

CREATE TABLE checkpoints (
  run bigint NOT NULL,
  seq bigint NOT NULL,
  step bigint NOT NULL,
  root text NOT NULL,
  PRIMARY KEY (run, seq)
);
CREATE INDEX checkpoints_step ON checkpoints (run, step, seq);

CREATE TABLE effects (
  key text PRIMARY KEY,
  run_id text NOT NULL,
  request text NOT NULL,
  response text NOT NULL,
  created_at text NOT NULL
);
CREATE INDEX effects_run ON effects (run_id);

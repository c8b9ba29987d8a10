-- 2: batch evaluation (one row per batch, one per recorded episode; the primary key makes a
-- retried episode replace its row instead of adding one). As SQLite migration 2; the JSON columns
-- are `json` (kept as written, key order included).
CREATE TABLE batches (
  id text COLLATE "C" PRIMARY KEY,
  graph_name text NOT NULL,
  graph json NOT NULL,
  episodes integer NOT NULL,
  workers integer NOT NULL,
  seed bigint NOT NULL,
  sets json NOT NULL,
  mode text NOT NULL,
  status text NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  ended_at text,
  error text
);
CREATE INDEX batches_created ON batches (created_at);

CREATE TABLE batch_episodes (
  batch_id text NOT NULL,
  episode integer NOT NULL,
  row json NOT NULL,
  PRIMARY KEY (batch_id, episode)
);

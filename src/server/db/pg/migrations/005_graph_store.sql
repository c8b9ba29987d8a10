-- 5: the workspace's graphs in distributed mode (src/server/workspace/pgGraphStore.ts), shared by
-- every server instance instead of each instance's graphs/ folder. A graph is a row of `graphs`
-- (its id `path`: the path under graphs/ without `.json`, `folder/name`); every saved version is a
-- row of `graph_versions` and is kept, also after the graph is moved (the row's gid stays) or
-- deleted (`deleted_at`; a graph created again at that path is a new gid with versions from 1).
CREATE TABLE graphs (
  gid bigserial PRIMARY KEY,
  path text NOT NULL,
  -- The latest version: its number and the etag of its text (sha1, 16 hex, as the folder store's).
  version integer NOT NULL,
  etag text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX graphs_live_path ON graphs (path) WHERE deleted_at IS NULL;

CREATE TABLE graph_versions (
  gid bigint NOT NULL REFERENCES graphs (gid),
  version integer NOT NULL,
  -- The path the graph had when this version was saved.
  path text NOT NULL,
  -- SHA-256 of the canonical save form, the graph version runs and batches record.
  sha256 text NOT NULL,
  etag text NOT NULL,
  content text NOT NULL,
  saved_at timestamptz NOT NULL DEFAULT now(),
  saved_by text,
  PRIMARY KEY (gid, version)
);

-- Folders with no graph in them (a folder holding graphs exists as their paths' prefix).
CREATE TABLE graph_folders (
  path text PRIMARY KEY
);

-- 4: batch ownership among several server instances (src/server/distributed/batchLease.ts). The
-- instance that starts a batch holds its lease and renews it every few seconds; a queued or running
-- distributed batch whose lease expired (its owner died) or that has none (started before this
-- migration) is taken by another instance, which collects its remaining rows and ends it. No
-- foreign key: the lease is taken before the batch row exists, so no instance ever sees a new
-- batch unowned. Times come from the database's clock (now()), the one clock every instance shares.
CREATE TABLE batch_leases (
  batch_id text COLLATE "C" PRIMARY KEY,
  owner text NOT NULL,
  expires_at timestamptz NOT NULL,
  acquired_at timestamptz NOT NULL DEFAULT now(),
  -- the owner whose expired lease this one replaced (NULL: the first owner)
  previous_owner text
);
CREATE INDEX batch_leases_expires ON batch_leases (expires_at);

// Run bundles (`.swrun`): one file holding a whole stored run — its row, the exact graph, every
// event in seq order, every checkpoint and (since version 2) the run's recorded LLM and node-service
// calls, so `statewire replay` can re-execute it anywhere with the services stopped — so a run can be exported from one Statewire and imported
// into another (bug reports, sharing). The byte layout (gzip of a length-prefixed record container)
// is written and read by src/server/runs/bundleFormat.ts; this file holds the constants both sides
// share and the schemas of the JSON records inside it.
import { z } from 'zod';
import { RunStatusSchema } from './protocol.ts';

/** The first 8 bytes of the (decompressed) container. */
export const BUNDLE_MAGIC = 'SWRUNBD\n';
/**
 * Container version written; a reader refuses versions it does not know. 2 added the recorded calls
 * (record 'R', `calls` in the end record); version 1 bundles (no calls) still import.
 */
export const BUNDLE_VERSION = 2;
/** The oldest container version this Statewire still reads. */
export const BUNDLE_MIN_VERSION = 1;
export const BUNDLE_FORMAT = 'statewire-run-bundle';
/** The one non-JSON type `POST /api/runs/import` accepts (it forces a CORS preflight, see originGuard.ts). */
export const BUNDLE_MEDIA_TYPE = 'application/vnd.statewire.bundle';
export const BUNDLE_EXTENSION = '.swrun';
export const BUNDLE_IMPORT_ROUTE = '/api/runs/import';

/** The run row as exported (RunSummary + the two settings a restore or fork reuses). */
export const BundleRunSchema = z
  .object({
    id: z.string().min(1).max(200),
    graph_name: z.string(),
    status: RunStatusSchema,
    steps: z.number().int().nonnegative(),
    last_seq: z.number().int().nonnegative(),
    started_at: z.string().min(1),
    ended_at: z.string().nullable(),
    parent_run_id: z.string().nullable(),
    parent_step: z.number().int().nonnegative().nullable(),
    lineage: z.string(),
    error: z.string().nullable(),
    fresh_effects: z.boolean(),
    step_delay_ms: z.number().int().nonnegative(),
    /** The graph's version (graph/graphVersion.ts); absent in bundles of runs stored before versions were kept. */
    graph_version: z.string().nullable().optional(),
  })
  .strict();
export type BundleRun = z.infer<typeof BundleRunSchema>;

export const BundleHeaderSchema = z
  .object({
    format: z.literal(BUNDLE_FORMAT),
    version: z.number().int().min(BUNDLE_MIN_VERSION).max(BUNDLE_VERSION),
    exported_at: z.string(),
    run: BundleRunSchema,
    /** The graph exactly as the run stored it (checked by the graph parser on import). */
    graph: z.unknown(),
  })
  .strict();
export type BundleHeader = z.infer<typeof BundleHeaderSchema>;

/**
 * One event: `[seq, type, ts, data]`, where `data` is the payload encoded against the bundle's own
 * blob table (big objects replaced by `{"$sw": blobId}` references, as in the server's blob store).
 */
export const BundleEventSchema = z.tuple([z.number().int().positive(), z.string(), z.string(), z.unknown()]);
export const BundleEventPageSchema = z.array(BundleEventSchema);

/** One checkpoint: `[seq, step, root]` (`root` encoded like an event's data). */
export const BundleCheckpointSchema = z.tuple([
  z.number().int().nonnegative(),
  z.number().int().nonnegative(),
  z.unknown(),
]);
export const BundleCheckpointPageSchema = z.array(BundleCheckpointSchema);

/**
 * One recorded call (db/effectStore.ts `RecordedCall`, engine/effects.ts), decoded from the bundle's
 * blob table: where it happened, what was asked and what was answered. Only answered calls travel.
 */
export const BundleCallSchema = z
  .object({
    key: z.string().min(1),
    run_id: z.string(),
    kind: z.string(),
    step: z.number().int(),
    node_id: z.string(),
    index: z.number().int().nonnegative(),
    request: z.unknown(),
    response: z.unknown(),
    ms: z.number().nonnegative().optional(),
    /** A fork's call answered from its parent's recording: that run and call key. */
    reused_from: z.object({ run_id: z.string(), key: z.string() }).strict().optional(),
  })
  .strict();
export type BundleCall = z.infer<typeof BundleCallSchema>;
/** A page of recorded calls: each call encoded like an event's data. */
export const BundleCallPageSchema = z.array(z.unknown());

/** The last record: what the reader must have seen (a cut-off container fails here at the latest). */
export const BundleEndSchema = z
  .object({
    events: z.number().int().nonnegative(),
    checkpoints: z.number().int().nonnegative(),
    blobs: z.number().int().nonnegative(),
    /** Recorded calls (version 2; absent in version 1). */
    calls: z.number().int().nonnegative().optional(),
  })
  .strict();
export type BundleEnd = z.infer<typeof BundleEndSchema>;

/** `POST /api/runs/import` → 201. */
export const BundleImportResultSchema = z.object({
  ok: z.literal(true),
  run_id: z.string(),
  original_run_id: z.string(),
  /** false when the original id was taken here and the run got `run_id` instead. */
  kept_id: z.boolean(),
  steps: z.number().int(),
  events: z.number().int(),
  checkpoints: z.number().int(),
  blobs: z.number().int(),
  /** Recorded calls imported with the run (0 from a version 1 bundle). */
  calls: z.number().int().optional(),
  read_only: z.literal(true),
});
export type BundleImportResult = z.infer<typeof BundleImportResultSchema>;

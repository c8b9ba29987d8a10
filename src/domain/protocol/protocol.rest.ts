// REST bodies and query strings of the run server (src/server/http/*). The app imports these to
// build requests; the server parses every inbound body with them. Graph payloads stay `unknown`
// here because they go through the tolerant graph parser, which reports its own JSON paths.
import { BreakpointListSchema } from '../debug/breakpoints.ts';
import { z } from 'zod';

const Int = z.coerce.number().int();
const Bool = z.union([
  z.boolean(),
  z.enum(['1', '0', 'true', 'false']).transform((v) => v === '1' || v === 'true'),
]);

/** Keys of a graph save request that are not part of the graph itself. */
export const SAVE_CONTROL_KEYS = ['folder', 'overwrite', 'expected_etag', 'replace_unreadable'] as const;

export const GraphSaveControlSchema = z.object({
  folder: z.string().default(''),
  overwrite: z.boolean().default(false),
  expected_etag: z.string().optional(),
  /**
   * A file that exists but does not read as a graph is replaced only when this says so (else 409
   * `unreadable-file`); the editor sends it after the user confirmed over the parse error.
   */
  replace_unreadable: z.boolean().default(false),
});

export const GraphMoveBodySchema = z
  .object({ dest_folder: z.string(), new_name: z.string().min(1).optional() })
  .strict();
export const FolderCreateBodySchema = z.object({ path: z.string().min(1) }).strict();
export const FolderRenameBodySchema = z
  .object({ path: z.string().min(1), new_path: z.string().min(1) })
  .strict();
export const FolderDeleteQuerySchema = z.object({
  path: z.string().min(1),
  kind: z.string().optional(),
  recursive: Bool.default(false),
});

/**
 * `GET /api/graphs?view=summary`: each file's id, folder, name, kind and description only (what the
 * explorer lists) instead of the reference's whole normalised graphs, which for big graphs are
 * megabytes to read, validate and send.
 */
export const GraphListQuerySchema = z.object({ view: z.enum(['full', 'summary']).default('full') });

export const LayoutBodySchema = z
  .object({
    dimensions: z
      .record(z.string(), z.object({ width: z.number().positive(), height: z.number().positive() }))
      .optional(),
  })
  .catchall(z.unknown());

export const RunStartBodySchema = z.object({
  loop_definition: z.unknown(),
  execution_id: z.string().min(1).max(200).optional(),
  step_delay_ms: z.number().int().min(0).max(60_000).default(200),
  /** Start paused (nothing runs until /run/resume or /run/step). */
  paused: z.boolean().default(false),
  fresh_effects: z.boolean().default(false),
  /** Data and node breakpoints in force from the first step (see domain/debug/breakpoints.ts). */
  breakpoints: BreakpointListSchema.default([]),
});
export type RunStartBody = z.input<typeof RunStartBodySchema>;
export const RunStartQuerySchema = z.object({ queue: Bool.default(false) });

export const StepParamSchema = z.object({ step: Int.nonnegative() });
export const RunIdParamSchema = z.object({ id: z.string().min(1) });
export const EmptyBodySchema = z.union([z.object({}).strict(), z.null(), z.undefined()]);
/** `PUT /api/navigate/run/breakpoints`: the current run's breakpoints, replaced as a whole. */
export const BreakpointsBodySchema = z.object({ breakpoints: BreakpointListSchema }).strict();
export const StepDelayBodySchema = z.object({ step_delay_ms: z.number().int().min(0).max(60_000) }).strict();

export const EventsQuerySchema = z.object({
  after: Int.nonnegative().default(0),
  limit: Int.min(1).max(5000).default(500),
  type: z.string().optional(),
});
export const StateQuerySchema = z.object({ step: Int.nonnegative() });

export const ForkBodySchema = z
  .object({
    step: z.number().int().nonnegative(),
    graph: z.unknown().optional(),
    fresh_effects: z.boolean().default(false),
    step_delay_ms: z.number().int().min(0).max(60_000).default(200),
    paused: z.boolean().default(false),
  })
  .strict();
export type ForkBody = z.input<typeof ForkBodySchema>;
export const RestoreBodySchema = z.object({ step: z.number().int().nonnegative() }).strict();

export const RunSummarySchema = z.object({
  id: z.string(),
  graph_name: z.string(),
  status: z.string(),
  steps: z.number().int(),
  last_seq: z.number().int(),
  started_at: z.string(),
  ended_at: z.string().nullable(),
  parent_run_id: z.string().nullable(),
  parent_step: z.number().int().nullable(),
  lineage: z.string(),
  error: z.string().nullable(),
  /** Content hash of the graph it ran (graph/graphVersion.ts); null for runs stored before versions were kept. */
  graph_version: z.string().nullable().default(null),
});
export type RunSummary = z.infer<typeof RunSummarySchema>;

/**
 * What kind of run a row is: `run` (started from a graph: the Run button, `run --server`), `fork`
 * (of another run at a step), `branch` (holds the steps a restore abandoned), `imported` (from a
 * bundle) or `episode` (of a batch).
 */
export const RunKindSchema = z.enum(['run', 'fork', 'branch', 'imported', 'episode']);
export type RunKind = z.infer<typeof RunKindSchema>;

/** The opaque `before` cursor of the run list: base64url of `[started_at, id]` of a listed row. */
export function encodeRunCursor(startedAt: string, id: string): string {
  const bytes = new TextEncoder().encode(JSON.stringify([startedAt, id]));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function decodeRunCursor(text: string): { startedAt: string; id: string } | undefined {
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const json = new TextDecoder('utf-8', { fatal: true }).decode(
      Uint8Array.from(binary, (c) => c.charCodeAt(0)),
    );
    const v = JSON.parse(json) as unknown;
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string')
      return { startedAt: v[0], id: v[1] };
  } catch {
    // not JSON: refused below
  }
  return undefined;
}

/**
 * `GET /api/runs` query: `limit` (1–500, default 50), `before` (a row's `cursor`: the page after
 * it), and exact filters `graph`, `status`, `kind`, `batch` (a batch id: its episodes).
 */
export const RunListQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(500).default(50),
    before: z
      .string()
      .max(2000)
      .transform((text, ctx) => {
        const c = decodeRunCursor(text);
        if (!c) {
          ctx.addIssue({ code: 'custom', message: "not a cursor of this list (use a row's `cursor`)" });
          return z.NEVER;
        }
        return c;
      })
      .optional(),
    graph: z.string().min(1).max(500).optional(),
    status: z.string().min(1).max(100).optional(),
    kind: RunKindSchema.optional(),
    batch: z.string().min(1).max(500).optional(),
  })
  .strict();

export const ApiErrorBodySchema = z.object({
  error: z
    .object({ code: z.string(), message: z.string(), path: z.string().optional() })
    .catchall(z.unknown()),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;

// ---- socket.io extras (the event envelopes themselves are in protocol.ts) ----

/** Ack of `subscribe`: `lastSeq` is the run's last committed seq when the subscription started. */
export const SubscribeAckSchema = z.union([
  z.object({ ok: z.literal(true), runId: z.string().nullable(), lastSeq: z.number().int() }),
  z.object({
    ok: z.literal(false),
    error: z.object({ code: z.string(), message: z.string(), path: z.string() }),
  }),
]);
export type SubscribeAck = z.infer<typeof SubscribeAckSchema>;

/**
 * A client-specific `error_event` (bad socket message) is sent with `seq: 0` and `runId: ""` (or the
 * subscribed run): it is not part of any run's log, so replay never repeats it.
 */
export const CLIENT_ERROR_SEQ = 0;

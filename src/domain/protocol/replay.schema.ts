// Offline replay of a run (`statewire replay`, `POST /api/runs/{id}/replay`, the editor's Runs →
// Replay and verify): the request body and the verdict, shared by the server and the app. What a
// replay does: src/server/replay/replay.ts; docs/replay.md.
import { z } from 'zod';

/** `POST /api/runs/{id}/replay`. */
export const ReplayBodySchema = z
  .object({
    /** Compare every replayed step's state with the recorded one (default true). */
    verify: z.boolean().default(true),
    /** An edited graph to replay instead of the run's own. */
    graph: z.unknown().optional(),
  })
  .strict();
export type ReplayBody = z.input<typeof ReplayBodySchema>;

/** Where a replay first parted from the recording. */
export const ReplayDifferenceSchema = z.object({
  step: z.number().int(),
  /**
   * `call`: a call had no recorded answer; `state`: a slot or node-local state differs; `error`: a
   * node failed where the recorded run did not; `steps`: the replay ended before the recording did.
   */
  kind: z.enum(['call', 'state', 'error', 'steps']),
  node_id: z.string().optional(),
  /** `container.slot` (state). */
  slot: z.string().optional(),
  message: z.string(),
  /** `call`, a fork's preview: what differs from the recorded call (`its config differs: …`). */
  reason: z.string().optional(),
});
export type ReplayDifference = z.infer<typeof ReplayDifferenceSchema>;

export const ReplayVerdictSchema = z.object({
  run_id: z.string(),
  /** true: every step replayed (and, verified, identical). */
  ok: z.boolean(),
  verified: z.boolean(),
  /** Root steps the replay completed. */
  steps: z.number().int(),
  /** Steps compared and found identical (verify). */
  identical: z.number().int(),
  /** Calls answered from the recording, and the recorded calls available. */
  calls: z.object({ answered: z.number().int(), recorded: z.number().int() }),
  difference: ReplayDifferenceSchema.nullable(),
  /** Notes on the replay's set-up (a service type built from the graph's edges). */
  notes: z.array(z.string()),
  /** One line: "20 steps identical", or the difference's message. */
  message: z.string(),
});
export type ReplayVerdict = z.infer<typeof ReplayVerdictSchema>;

/** `POST /api/runs/{id}/fork/preview`: the fork's body (ForkBodySchema); only `step` and `graph` matter. */
export const ForkPreviewSchema = z.object({
  run_id: z.string(),
  /** The step the fork starts from. */
  step: z.number().int(),
  /** Calls the fork will answer from the run's recording. */
  reused: z.number().int(),
  /** The run's recorded calls after `step`. */
  recorded: z.number().int(),
  /** The last step with one of those calls (null: none): past it every call is live. */
  recorded_until_step: z.number().int().nullable(),
  /** The first step with a call that differs (it runs live as a whole, and every step after it); null: none differs. */
  live_from_step: z.number().int().nullable(),
  /** The node of that call. */
  node_id: z.string().nullable(),
  /** Why it is live: `node 'policy': its config differs: epsilon 0.15 → 0.6`. */
  reason: z.string().nullable(),
  /** One sentence: "12 calls reused, from step 7 live: node 'planner': its config differs: …". */
  message: z.string(),
  notes: z.array(z.string()),
});
export type ForkPreview = z.infer<typeof ForkPreviewSchema>;

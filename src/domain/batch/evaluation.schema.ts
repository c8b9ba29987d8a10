// REST shapes of the evaluation routes (src/server/batch/evaluation.routes.ts): the query strings of
// compare two batches, query one, the first differing step of two runs, and the answers of the last
// two (a comparison is compare.ts's BatchComparison). Shared with the editor's requests.
import { z } from 'zod';
import type { FirstDifference } from '../debug/firstDiff.ts';
import { MAX_RESAMPLES } from './bootstrap.ts';
import type { QueryRow } from './evaluationCsv.ts';

/** `GET /api/batches/{id}/query`. */
export interface BatchQueryResult {
  batch_id: string;
  /** The condition as read back (`graph_state.step_count >= 25`, `write memory.trail by policy`). */
  query: string;
  /** Episodes searched (those with a recorded row). */
  episodes: number;
  /** Episodes with at least one hit. */
  episodes_hit: number;
  /** Every (episode, step) where the condition holds, by episode then step. */
  hits: QueryRow[];
}

/** `GET /api/batches/compare/first-diff`. */
export interface FirstDifferenceResult {
  run_a: string;
  run_b: string;
  /** null: every step of the two runs matches. */
  first: FirstDifference | null;
}

const Int = z.coerce.number().int();
const id = (what: string) => z.string({ error: `${what} is required` }).min(1, `${what} is required`);

/** `GET /api/batches/compare?a=BASELINE&b=CANDIDATE[&metric=M][&seed=S][&resamples=R][&format=csv|summary-csv]`. */
export const CompareQuerySchema = z
  .object({
    a: id('a (the baseline batch id)'),
    b: id('b (the candidate batch id)'),
    metric: z.string().min(1).optional(),
    seed: Int.refine(Number.isSafeInteger, 'seed must be a safe integer').optional(),
    resamples: Int.min(100).max(MAX_RESAMPLES).optional(),
    format: z.enum(['json', 'csv', 'summary-csv']).default('json'),
  })
  .strict();

/** `GET /api/batches/{id}/query?q=CONDITION[&format=csv]`. */
export const BatchQueryQuerySchema = z
  .object({
    q: z.string({ error: 'q (the condition) is required' }).min(1, 'q (the condition) is required').max(2000),
    format: z.enum(['json', 'csv']).default('json'),
  })
  .strict();

/** `GET /api/batches/compare/first-diff?a=RUN&b=RUN`. */
export const FirstDiffQuerySchema = z.object({ a: id('a (a run id)'), b: id('b (a run id)') }).strict();

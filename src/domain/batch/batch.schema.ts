// The body of `POST /api/batches`. The graph stays `unknown` here: it goes through the tolerant
// graph parser, which reports its own JSON paths (as `POST /api/navigate/run` does).
import { z } from 'zod';

export const MAX_EPISODES = 100_000;
export const MAX_WORKERS = 64;
/**
 * `--set` overrides per batch. Each is checked by parsing the whole graph again (setPaths.ts), so
 * their number bounds the work a request costs (100,000 of them once held the server 5.7 s).
 */
export const MAX_SET_ENTRIES = 200;

const int = (what: string) =>
  z.number({ error: `${what} must be a number` }).int(`${what} must be an integer`);

export const BatchStartBodySchema = z
  .object({
    loop_definition: z.unknown().refine((v) => v !== undefined, 'loop_definition (the graph) is required'),
    episodes: int('episodes')
      .min(1, 'episodes must be at least 1')
      .max(MAX_EPISODES, `episodes must be at most ${MAX_EPISODES}`),
    workers: int('workers')
      .min(1, 'workers must be at least 1')
      .max(MAX_WORKERS, `workers must be at most ${MAX_WORKERS}`)
      .default(1),
    /** Base seed: episode i runs with deriveSeed(seed, i). */
    seed: int('seed').refine(Number.isSafeInteger, 'seed must be a safe integer').default(0),
    /** `path=value` overrides applied to the graph before seeding (see setPaths.ts). */
    set: z
      .array(z.string({ error: 'each set entry must be a "path=value" string' }))
      .max(MAX_SET_ENTRIES, `at most ${MAX_SET_ENTRIES} set entries`)
      .default([]),
  })
  .strict();
export type BatchStartBody = z.infer<typeof BatchStartBodySchema>;

// The IPC messages between the embedded pool (parent, the only process that opens the run database)
// and its episode children. A child's RunLog calls travel as `call` and come back as `reply`, so
// the child writes the run log without opening the SQLite file itself.
import type { EpisodeRow } from '../../domain/batch/batch.types.ts';
import type { EpisodeLog } from '../db/runLog.ts';
import type { ServiceEntry } from '../services/servicesConfig.ts';
import type { EpisodeJob } from './episodeRun.ts';

/** The methods an episode child may call: the EpisodeLog port (what runEpisode and failEpisode use). */
export const PROXIED_METHODS = [
  'createRun',
  'commit',
  'getRun',
  'lastCheckpoint',
  'events',
] as const satisfies ReadonlyArray<keyof EpisodeLog>;
export type ProxiedMethod = (typeof PROXIED_METHODS)[number];

export type ToChild =
  | {
      t: 'init';
      worker: string;
      pluginDir: string | null;
      stepDelayMs: number;
      /** Node services the child connects to or starts (entriesForEpisodeWorkers). */
      services: ServiceEntry[];
    }
  | { t: 'job'; job: EpisodeJob }
  | { t: 'reply'; id: number; ok: true; value: unknown }
  | { t: 'reply'; id: number; ok: false; error: string }
  /** Stop the episode in flight between two steps (left resumable, row `interrupted`). */
  | { t: 'stop' };

export type FromChild =
  | { t: 'ready'; failures: string[] }
  | { t: 'fatal'; error: string }
  | { t: 'call'; id: number; method: ProxiedMethod; args: unknown[] }
  | { t: 'row'; row: EpisodeRow }
  /** runEpisode threw (the log refused a write…): the pool counts it as a failed attempt. */
  | { t: 'failed'; error: string };

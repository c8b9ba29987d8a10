// The IPC messages between the embedded pool (parent) and its episode children. A child writes its
// episodes' log one of two ways, by what the parent's log is:
// - a SQLite file: through its own connection to that file (episodeDbLog.ts), telling the parent
//   what each commit put in the log (`committed`); nothing of the events crosses the channel;
// - anything else (an in-memory database; a RunLog of another kind): its
//   RunLog calls travel as `call` and come back as `reply` (ipcRunLog.ts), the parent writing them.
import type { EpisodeRow } from '../../domain/batch/batch.types.ts';
import type { EpisodeLog } from '../db/runLog.ts';
import type { ServiceEntry } from '../services/servicesConfig.ts';
import type { Committed } from './episodeDbLog.ts';
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
      /** The SQLite file the child writes itself; null: its log calls go to the parent. */
      database: string | null;
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
  /** A commit of the child's own connection is in the log (the parent publishes it to live viewers). */
  | ({ t: 'committed' } & Committed)
  | { t: 'row'; row: EpisodeRow }
  /** runEpisode threw (the log refused a write…): the pool counts it as a failed attempt. */
  | { t: 'failed'; error: string };

// The writer thread of an episode child (worker_threads): its own connection to the run database
// (episodeDbLog.ts) answers the episode's log calls, which the child's main thread sends it as
// messages (ipcRunLog.ts), a commit with its event page encoded already (eventPages.pageOut). The
// engine runs on the main thread while a group commit is written here, so an episode uses two
// cores: one steps and prepares commits, the other writes them. Messages are answered in arrival order, one at a time (the store is synchronous), so
// commits reach the file in the order the episode made them.
import { parentPort, workerData } from 'node:worker_threads';
import { EpisodeDbLog, type Committed } from './episodeDbLog.ts';
import type { ProxiedMethod } from './poolProtocol.ts';

/** Main thread → writer: a log call (as ipcRunLog.ts sends it). */
export interface WriterCall {
  t: 'call';
  id: number;
  method: ProxiedMethod;
  args: unknown[];
}

/** Writer → main thread: the database is open (or not), a reply, a commit to tell the parent about. */
export type FromWriter =
  | { t: 'open' }
  | { t: 'fatal'; error: string }
  | { t: 'reply'; id: number; ok: true; value: unknown }
  | { t: 'reply'; id: number; ok: false; error: string }
  | ({ t: 'committed' } & Committed);

export interface WriterData {
  file: string;
}

const port = parentPort;
if (port) {
  const post = (m: FromWriter) => port.postMessage(m);
  const { file } = workerData as WriterData;
  let log: EpisodeDbLog | undefined;
  try {
    log = new EpisodeDbLog(file, (c) => post({ t: 'committed', ...c }));
    post({ t: 'open' });
  } catch (err) {
    post({ t: 'fatal', error: `episode worker: cannot open ${file}: ${(err as Error).message}` });
  }
  port.on('message', (m: WriterCall) => {
    if (!log) return;
    const fn = log[m.method] as (...a: unknown[]) => Promise<unknown>;
    // The store is synchronous: the call is done when it returns; its promise only carries the value.
    fn.apply(log, m.args).then(
      (value) => post({ t: 'reply', id: m.id, ok: true, value: value ?? null }),
      (err: unknown) =>
        post({ t: 'reply', id: m.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
    );
  });
}

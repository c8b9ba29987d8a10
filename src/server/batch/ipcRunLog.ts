// An EpisodeLog over messages: the calls runEpisode makes (createRun, commit, getRun,
// lastCheckpoint, events) go to whoever writes the log — an episode child's writer thread
// (episodeWriter.ts), or the pool's parent when its log is no file — and their answers come back
// as replies. A commit travels without what its envelopes repeat (commitWire.ts). The archive (RunLog) stays with the parent; an episode has no use for it.
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import type { Checkpoint } from '../../engine/run.api.ts';
import type { CommitBatch, EpisodeLog, NewRun, StoredRun } from '../db/runLog.ts';
import type { FromChild, ProxiedMethod, ToChild } from './poolProtocol.ts';
import { packCommit } from './commitWire.ts';

type Reply = Extract<ToChild, { t: 'reply' }>;

export class IpcRunLog implements EpisodeLog {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly send: (m: FromChild) => void,
    /** A commit's form on the way: packed for the pool's parent (JSON over IPC), else as given. */
    private readonly wire: (batch: CommitBatch) => unknown = packCommit,
  ) {}

  private call<T>(method: ProxiedMethod, ...args: unknown[]): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.send({ t: 'call', id, method, args });
    });
  }

  /** A reply from the parent. */
  settle(m: Reply): void {
    const w = this.waiting.get(m.id);
    if (!w) return;
    this.waiting.delete(m.id);
    if (m.ok) w.resolve(m.value ?? undefined);
    else w.reject(new Error(m.error));
  }

  createRun(r: NewRun): Promise<void> {
    return this.call('createRun', r);
  }
  commit(runId: string, batch: CommitBatch): Promise<void> {
    return this.call('commit', runId, this.wire(batch));
  }
  getRun(id: string): Promise<StoredRun | undefined> {
    return this.call('getRun', id);
  }
  lastCheckpoint(runId: string): Promise<(Checkpoint & { seq: number }) | undefined> {
    return this.call('lastCheckpoint', runId);
  }
  events(runId: string, after: number, limit: number, type?: string): Promise<EventEnvelope[]> {
    return this.call('events', runId, after, limit, type);
  }

  /** The episode child is going away: nobody will answer the calls still waiting. */
  async close(): Promise<void> {
    for (const w of this.waiting.values()) w.reject(new Error('the episode worker is closing'));
    this.waiting.clear();
  }
}

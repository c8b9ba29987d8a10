// The embedded batch executor: K child processes on this machine (no Redis), each running one
// episode at a time (episodeChild.ts). However many batches run, their children together never
// exceed the pool's `maxWorkers` (workerSlots.ts): a batch forks a child only once it holds a slot,
// so a batch started while the slots are taken waits (its status reads `queued`) and starts as they
// free up. A child writes its episodes' log itself, from a writer thread with its own connection to
// `log`'s SQLite file (episodeWriter.ts, episodeDbLog.ts), and tells the parent what each commit put
// there: the parent reads those events back, in commit order, for `onEvents` (the live viewers), and
// keeps compaction (it packs ended episodes, held back while episodes run flat out). The events
// never cross the channel, and the child's engine steps while its last group commit is written. A
// log that is no file (in memory) is written here instead: the child's calls arrive over IPC and are
// answered from `log` (ipcRunLog.ts), each commit passed to `onEvents` as it lands. A child that
// dies mid-episode is replaced and its episode retried on the new child, resuming from the last
// committed checkpoint; after `maxAttempts` attempts the episode is recorded as `error`.
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BatchRecord, EpisodeRow } from '../../domain/batch/batch.types.ts';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import type { CommitBatch, RunLog } from '../db/runLog.ts';
import type { SqliteRunLog } from '../db/sqliteRunLog.ts';
import type { Committed } from './episodeDbLog.ts';
import type { BatchExecutor } from './batchManager.ts';
import { unpackCommit, type WireCommit } from './commitWire.ts';
import { failEpisode, type EpisodeJob } from './episodeRun.ts';
import type { ServiceEntry } from '../services/servicesConfig.ts';
import { PROXIED_METHODS, type FromChild, type ToChild } from './poolProtocol.ts';
import { defaultMaxWorkers, WorkerSlots } from './workerSlots.ts';

export interface EmbeddedPoolOptions {
  /** The run log (the parent's database). */
  log: RunLog;
  /** Plugin folder the children load (as `statewire run` does); null: built-ins only. */
  pluginDir: string | null;
  /** Committed episode events, for live viewers. */
  onEvents?: (events: EventEnvelope[]) => void;
  /** Attempts per episode before it is recorded as `error` (default 3). */
  maxAttempts?: number;
  /** Pause between an episode's root steps (default 0). */
  stepDelayMs?: number;
  /** Where a child's stdout/stderr lines go (default: this process's stderr, prefixed). */
  onOutput?: (worker: string, line: string) => void;
  /** Node services for the children, read at each child's start (episodeServices.ts); default none. */
  services?: () => ServiceEntry[];
  /** Episode processes of all batches together (`--max-workers`; default: one per core). */
  maxWorkers?: number;
}

const CHILD = fileURLToPath(new URL('./episodeChild.ts', import.meta.url));
/** tsx's loader by absolute URL: the child runs TypeScript from any cwd, as bin/statewire.js does. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const PROXIED: ReadonlySet<string> = new Set(PROXIED_METHODS);
/** `nice` of an episode process (0 = the server's own priority, 19 = the lowest). */
const EPISODE_NICE = 10;

interface Worker {
  name: string;
  proc: ChildProcess;
  ready: boolean;
  job?: EpisodeJob;
  /** Log calls of this child still being answered: a retry waits for them (its commits must land first). */
  calls: Set<Promise<unknown>>;
  tail: string[];
}

/** The SQLite file an episode child may open itself (null: its log calls come here). */
const fileOf = (log: RunLog): string | null => (log.kind === 'sqlite' ? (log as SqliteRunLog).file : null);

/** One batch on the pool: its queue, its workers, its per-episode attempts. */
class PoolRun {
  readonly queue: EpisodeJob[];
  readonly workers = new Set<Worker>();
  readonly attempts = new Map<number, number>();
  cancelled = false;
  private spawned = 0;
  private readyOnce = false;
  private startFailures = 0;
  /** Per run, the last seq passed to `onEvents` (children writing the file themselves). */
  private readonly published = new Map<string, number>();
  /** Publications in order: each reads its events back once the ones before it went out. */
  private publishing: Promise<void> = Promise.resolve();
  private resolve!: () => void;
  private reject!: (e: Error) => void;
  readonly finished = new Promise<void>((res, rej) => {
    this.resolve = res;
    this.reject = rej;
  });

  constructor(
    private readonly opts: EmbeddedPoolOptions,
    private readonly slots: WorkerSlots,
    readonly batch: BatchRecord,
    jobs: EpisodeJob[],
    private readonly onRow: (row: EpisodeRow) => void,
    private readonly onStart?: (job: EpisodeJob) => void,
  ) {
    this.queue = [...jobs];
  }

  start(): void {
    const k = Math.max(1, Math.min(this.batch.workers, this.queue.length));
    if (this.queue.length === 0) return this.resolve();
    for (let i = 0; i < k; i++) this.askSlot();
  }

  /** A child is forked once the pool grants a slot (maybe at once, maybe after other batches). */
  private askSlot(): void {
    this.slots.request(this.batch.id, () => {
      if (this.cancelled || this.queue.length === 0 || this.workers.size >= this.batch.workers) {
        this.slots.release(); // not needed any more: the next batch in line gets it
        this.settleIfIdle();
      } else this.spawn();
    });
  }

  /** Done once no child is left and none is waiting for a slot. */
  private settleIfIdle(): void {
    if (this.workers.size === 0 && this.slots.waitingFor(this.batch.id) === 0) this.resolve();
  }

  private spawn(): void {
    this.spawned += 1;
    const name = `embedded-${this.spawned}`;
    const proc = fork(CHILD, [], {
      execArgv: ['--import', TSX],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: process.env,
    });
    // Episodes are background work: at a lower priority the server (and the editor it serves) keeps
    // the CPU it needs to answer while every core runs an episode.
    if (proc.pid !== undefined)
      try {
        setPriority(proc.pid, EPISODE_NICE);
      } catch {
        // not allowed here (some containers): the episodes run at the server's priority
      }
    const w: Worker = { name, proc, ready: false, calls: new Set(), tail: [] };
    this.workers.add(w);
    const lines = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        w.tail = [...w.tail.slice(-9), line];
        this.output(name, line);
      }
    };
    proc.stdout?.on('data', lines);
    proc.stderr?.on('data', lines);
    proc.on('message', (m: FromChild) => this.onMessage(w, m));
    // Gone = exited AND its IPC channel closed: every message it sent before dying is delivered by
    // then. ('close' would also wait for stdio, which tsx's esbuild helper may keep open.)
    proc.on('exit', (code, signal) => {
      const gone = () => void this.onGone(w, code, signal);
      if (proc.connected) proc.once('disconnect', gone);
      else gone();
    });
    proc.on('error', () => undefined); // a failed spawn also exits
    this.send(w, {
      t: 'init',
      worker: name,
      pluginDir: this.opts.pluginDir,
      stepDelayMs: this.opts.stepDelayMs ?? 0,
      database: fileOf(this.opts.log),
      services: this.opts.services?.() ?? [],
    });
  }

  private output(worker: string, line: string): void {
    if (this.opts.onOutput) this.opts.onOutput(worker, line);
    else process.stderr.write(`[${worker}] ${line}\n`);
  }

  private send(w: Worker, m: ToChild): void {
    if (w.proc.connected) w.proc.send(m, (err) => void err); // a dying child: 'close' handles it
  }

  private onMessage(w: Worker, m: FromChild): void {
    if (m.t === 'ready') {
      w.ready = true;
      this.readyOnce = true;
      for (const f of m.failures) this.output(w.name, f);
      this.next(w);
    } else if (m.t === 'fatal') {
      this.fail(new Error(m.error));
    } else if (m.t === 'call') void this.answer(w, m);
    else if (m.t === 'committed') this.committed(m);
    else if (m.t === 'row') {
      const job = w.job;
      w.job = undefined;
      if (job)
        this.onRow({
          ...m.row,
          attempts: Math.max(m.row.attempts ?? 1, this.attempts.get(job.episode) ?? 1),
        });
      this.next(w);
    } else if (m.t === 'failed') {
      const job = w.job;
      w.job = undefined;
      if (job) void this.retry(job, m.error).then(() => this.next(w));
    }
  }

  /** A child's run-log call, answered from the parent's log; committed events go to the viewers. */
  private async answer(w: Worker, m: Extract<FromChild, { t: 'call' }>): Promise<void> {
    const p = (async () => {
      if (!PROXIED.has(m.method)) throw new Error(`RunLog.${m.method} is not available to episode workers`);
      const fn = this.opts.log[m.method] as (...a: unknown[]) => Promise<unknown>;
      const args =
        m.method === 'commit'
          ? [m.args[0], unpackCommit(m.args[0] as string, m.args[1] as WireCommit)]
          : m.args;
      const value = await fn.apply(this.opts.log, args);
      if (m.method === 'commit') {
        // A group commit carries whole steps before its own events: all of them are in the log now.
        const batch = args[1] as CommitBatch;
        const events = (batch.earlier ?? []).flatMap((p) => p.events as EventEnvelope[]);
        events.push(...(batch.events as EventEnvelope[]));
        if (events.length > 0) this.opts.onEvents?.(events);
      }
      return value;
    })();
    w.calls.add(p);
    try {
      this.send(w, { t: 'reply', id: m.id, ok: true, value: (await p) ?? null });
    } catch (err) {
      this.send(w, { t: 'reply', id: m.id, ok: false, error: (err as Error).message });
    } finally {
      w.calls.delete(p);
    }
  }

  /** A child's own commit is in the file: compaction hears of it, live viewers get its events. */
  private committed(c: Committed): void {
    (this.opts.log as SqliteRunLog).committedElsewhere(c.runId, c);
    if (c.to > 0) this.publishThrough(c.runId, c.to, c.from - 1);
  }

  /**
   * Reads `runId`'s events after the last ones published (or `from`, the first time) through `to`
   * back from the log and passes them to `onEvents`, after every publication queued before.
   */
  private publishThrough(runId: string, to: number, from: number): Promise<void> {
    const onEvents = this.opts.onEvents;
    if (!onEvents) return this.publishing;
    this.publishing = this.publishing.then(async () => {
      try {
        let after = this.published.get(runId) ?? from;
        while (after < to) {
          const events = await this.opts.log.events(runId, after, Math.min(to - after, 1000));
          if (events.length === 0) break;
          onEvents(events);
          after = events[events.length - 1]!.seq;
          this.published.set(runId, after);
        }
      } catch (err) {
        // Committed is what counts; a viewer's trouble must not stop the batch.
        console.error(`statewire: live broadcast of ${runId} failed: ${(err as Error).message}`);
      }
    });
    return this.publishing;
  }

  /** Hands the worker its next episode, or lets it go when there is none. */
  private next(w: Worker): void {
    const job = this.cancelled ? undefined : this.queue.shift();
    if (!job) {
      this.slots.cancel(this.batch.id); // the queue is empty: no more children wanted
      w.proc.disconnect?.();
      return;
    }
    w.job = job;
    // Where its live events start: what the log holds now (read before the child can commit).
    if (this.opts.onEvents && fileOf(this.opts.log) && !this.published.has(job.runId))
      void this.opts.log.getRun(job.runId).then((r) => {
        if (!this.published.has(job.runId)) this.published.set(job.runId, r?.last_seq ?? 0);
      });
    this.attempts.set(job.episode, (this.attempts.get(job.episode) ?? 0) + 1);
    this.onStart?.(job);
    this.send(w, { t: 'job', job });
  }

  /** An attempt of `job` failed: again (on a fresh child or the next free one), or recorded as error. */
  private async retry(job: EpisodeJob, why: string): Promise<void> {
    const tries = this.attempts.get(job.episode) ?? 1;
    const max = this.opts.maxAttempts ?? 3;
    if (tries < max && !this.cancelled) {
      this.queue.unshift(job);
      return;
    }
    const reason = `${why} (attempt ${tries} of ${max})`;
    try {
      this.onRow(
        await failEpisode(
          job,
          { log: this.opts.log, worker: 'embedded', publish: this.opts.onEvents },
          reason,
          tries,
        ),
      );
    } catch (err) {
      console.error(`statewire: episode ${job.episode} of ${this.batch.id}: ${(err as Error).message}`);
    }
  }

  private async onGone(w: Worker, code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    await Promise.allSettled([...w.calls]);
    // A child killed between a commit and its notice: what it committed still reaches the viewers
    // before a retry (or failEpisode) writes after it.
    const runId = w.job?.runId;
    const lastSeq = runId !== undefined ? (await this.opts.log.getRun(runId))?.last_seq : undefined;
    if (runId !== undefined && lastSeq !== undefined && this.published.has(runId))
      await this.publishThrough(runId, lastSeq, lastSeq);
    else await this.publishing;
    this.workers.delete(w);
    this.slots.release();
    const job = w.job;
    w.job = undefined;
    if (!w.ready && !this.readyOnce && ++this.startFailures >= (this.opts.maxAttempts ?? 3))
      return this.fail(
        new Error(
          `episode workers do not start (exit ${code ?? signal}): ${w.tail.join(' | ') || 'no output'}`,
        ),
      );
    if (job) {
      await this.retry(job, `worker ${w.name} died (${signal ?? `exit code ${code}`})`);
    }
    const asked = this.slots.waitingFor(this.batch.id);
    if (this.queue.length > 0 && !this.cancelled && this.workers.size + asked < this.batch.workers)
      this.askSlot();
    this.settleIfIdle();
  }

  private fail(err: Error): void {
    this.cancelled = true;
    this.slots.cancel(this.batch.id);
    for (const w of this.workers) w.proc.kill('SIGKILL');
    this.reject(err);
  }

  cancel(): void {
    this.cancelled = true;
    this.queue.length = 0;
    this.slots.cancel(this.batch.id);
    for (const w of this.workers) if (w.job) this.send(w, { t: 'stop' });
    this.settleIfIdle(); // a batch still queued for slots has nothing to wait for
  }

  /** For tests: the pid running each episode in flight. */
  busy(): { episode: number; pid: number; worker: string }[] {
    return [...this.workers].flatMap((w) =>
      w.job && w.proc.pid ? [{ episode: w.job.episode, pid: w.proc.pid, worker: w.name }] : [],
    );
  }

  kill(): void {
    for (const w of this.workers) w.proc.kill('SIGKILL');
  }
}

export class EmbeddedPool implements BatchExecutor {
  private readonly runs = new Map<string, PoolRun>();
  /** Shared by every batch of this pool (one pool per server). */
  readonly slots: WorkerSlots;

  constructor(private readonly opts: EmbeddedPoolOptions) {
    this.slots = new WorkerSlots(opts.maxWorkers ?? defaultMaxWorkers());
  }

  async run(
    batch: BatchRecord,
    jobs: EpisodeJob[],
    onRow: (row: EpisodeRow) => void,
    onStart?: (job: EpisodeJob) => void,
  ): Promise<void> {
    const r = new PoolRun(this.opts, this.slots, batch, jobs, onRow, onStart);
    this.runs.set(batch.id, r);
    try {
      r.start();
      await r.finished;
    } finally {
      this.runs.delete(batch.id);
    }
  }

  cancel(batchId: string): void {
    this.runs.get(batchId)?.cancel();
  }

  /** Episodes in flight and the child pids running them (tests kill one to check recovery). */
  busy(batchId: string): { episode: number; pid: number; worker: string }[] {
    return this.runs.get(batchId)?.busy() ?? [];
  }

  /** Stops every batch: episodes in flight end `interrupted`; children still there after 10 s are killed. */
  async close(): Promise<void> {
    const all = [...this.runs.values()];
    for (const r of all) r.cancel();
    const timer = setTimeout(() => all.forEach((r) => r.kill()), 10_000);
    timer.unref();
    await Promise.allSettled(all.map((r) => r.finished));
    clearTimeout(timer);
  }
}

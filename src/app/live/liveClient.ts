// Follows one run over socket.io: `subscribe {runId, afterSeq, batch: true}`, drop anything at or below the last
// accepted seq, fill holes from GET /api/runs/{id}/events before going on, honour the server's
// `gap` notices (dropped intermediate nav_steps under backpressure: tolerated in order, fetched in
// the background for the timeline), re-subscribe with afterSeq on reconnect, and apply accepted
// events to the run store at most once per animation frame. After a reconnect the run's status is
// read again over REST (a restarted server marks the runs it found live `interrupted` without an event).
// Batches (`events` messages: the envelopes of one committed group or replay page, in seq order) are
// the app's delivery: one socket frame per commit instead of one per event. Each envelope of a batch
// goes through the same checks as a single message, so order, holes and duplicates are handled
// alike. A batch is packed (one run's events in columns: packedEvents.ts, the one wire form of a
// batch), unpacked here into the same envelopes. A replay batch comes with an ack request; it is answered once what came before it is
// applied, so the server replays no faster than this tab applies (per-event messages are still
// understood: a server or relay that sends them works unchanged).
// The transport is injected (`SocketLike`), so the ordering logic is tested without a socket.
import { unpackEvents } from '../../domain/protocol/packedEvents.ts';
import { EventEnvelopeSchema, EVENT_TYPES, type EventEnvelope } from '../../domain/protocol/protocol.ts';
import type { RunStoreLike } from '../run/run.store.ts';
import { applyBatch, applyRunStatus, type RunStatusRow } from './handlers.ts';

export interface SocketLike {
  on(event: string, fn: (...args: unknown[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  connected: boolean;
  disconnect(): unknown;
}

export interface EventsPage {
  events: unknown[];
  next_after: number;
  last_seq: number;
}

export interface LiveClientDeps {
  store: RunStoreLike;
  socket: SocketLike;
  fetchEvents: (runId: string, after: number, type?: string) => Promise<EventsPage>;
  /** GET /api/runs/{id}: the run's status as of its last event, re-read after a reconnect. */
  fetchRun?: (runId: string) => Promise<RunStatusRow>;
  /** Schedules the batch apply; defaults to requestAnimationFrame with a timer fallback (hidden tabs). */
  schedule?: (fn: () => void) => void;
}

/** Page size asked of /api/runs/{id}/events (a shorter page means the end of the log). */
export const PAGE_LIMIT = 1000;

export function frameScheduler(fn: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    fn();
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
  // rAF does not fire in a background tab; the timer keeps the store (and the timeline) current.
  setTimeout(run, 250);
}

export class LiveClient {
  private runId: string | null = null;
  private lastSeq = 0;
  /** Accepted, not yet applied (flushed once per frame). */
  private pending: EventEnvelope[] = [];
  private scheduled = false;
  /** While filling a hole, live events wait here. */
  private held: EventEnvelope[] | null = null;
  /** Seqs the server said it dropped (nav_steps only); a hole inside it is not a loss. */
  private tolerated: { from: number; to: number } | null = null;
  private readonly schedule: (fn: () => void) => void;
  /** Ack requests of replay batches, answered after the next apply. */
  private acks: Array<() => void> = [];
  /** The socket has connected before: the next `connect` is a reconnect. */
  private connectedBefore = false;

  constructor(private readonly deps: LiveClientDeps) {
    this.schedule = deps.schedule ?? frameScheduler;
    for (const type of EVENT_TYPES) deps.socket.on(type, (msg: unknown) => this.receive(msg));
    deps.socket.on('events', (batch: unknown, ack?: unknown) => this.receiveBatch(batch, ack));
    deps.socket.on('connect', () => {
      this.subscribe();
      if (this.connectedBefore) void this.rereadStatus();
      this.connectedBefore = true;
    });
  }

  /**
   * Connected again: the server may have restarted meanwhile, and a run it found live at its start
   * is `interrupted` with no event saying so (its log ends where the crash cut it; the replay brings
   * the steps, not that). So the run's status is read again, as of its last event.
   */
  private async rereadStatus(): Promise<void> {
    const runId = this.runId;
    if (runId === null || !this.deps.fetchRun) return;
    try {
      const row = await this.deps.fetchRun(runId);
      if (this.runId === runId) applyRunStatus(row, this.deps.store);
    } catch {
      // Not answered (gone again, or the run was deleted): the next reconnect tries again.
    }
  }

  /**
   * Listens to a server notice that is not part of a run's log (`services_changed`,
   * `components_changed`, `graphs_changed`, and `connect` for "connected again, refetch"). The
   * handler belongs to the caller (it may need the editor store, which live/ does not import).
   */
  onNotice(type: string, fn: (data: unknown) => void): void {
    this.deps.socket.on(type, (data: unknown) => fn(data));
  }

  get followed(): string | null {
    return this.runId;
  }

  get lastAppliedSeq(): number {
    return this.lastSeq;
  }

  /** Start following a run from `afterSeq` (0 = its whole history). */
  follow(runId: string, afterSeq = 0): void {
    this.runId = runId;
    this.lastSeq = afterSeq;
    this.pending = [];
    this.held = null;
    this.tolerated = null;
    this.subscribe();
  }

  /**
   * Asks again for everything after the last accepted seq (back online on a socket that stayed up,
   * where frames may have been lost): the server replays from there, anything seen twice is dropped.
   */
  resync(): void {
    this.subscribe();
  }

  unfollow(): void {
    this.runId = null;
    this.pending = [];
    this.held = null;
    if (this.deps.socket.connected) this.deps.socket.emit('unsubscribe');
  }

  close(): void {
    this.unfollow();
    this.deps.socket.disconnect();
  }

  private subscribe(): void {
    if (this.runId === null || !this.deps.socket.connected) return;
    const runId = this.runId;
    const msg = { runId, afterSeq: this.lastSeq, batch: true };
    this.deps.socket.emit('subscribe', msg, (ack: unknown) => {
      const a = ack as { ok?: boolean; error?: { message?: string } } | undefined;
      if (a && a.ok === false && this.runId === runId)
        this.deps.store.setState({ error: a.error?.message ?? 'subscribe refused' });
    });
  }

  /**
   * An `events` batch: each envelope as if it came alone, then its ack once they are applied. A
   * batch that does not unpack is dropped like an unreadable envelope: the next event that
   * arrives shows the hole, which is then filled from the log.
   */
  receiveBatch(batch: unknown, ack?: unknown): void {
    const unpacked = unpackEvents(batch);
    if (unpacked.ok) for (const e of unpacked.events) this.receive(e);
    if (typeof ack !== 'function') return;
    const answer = () => (ack as () => void)();
    if (this.scheduled) this.acks.push(answer);
    else answer();
  }

  /** Entry point for every server message (public for tests). */
  receive(raw: unknown): void {
    const r = EventEnvelopeSchema.safeParse(raw);
    if (!r.success || this.runId === null || r.data.runId !== this.runId) return;
    const m = r.data;
    if (m.seq <= this.lastSeq) return;
    if (this.held) {
      this.held.push(m);
      return;
    }
    if (m.type === 'gap') {
      this.onGap(m);
      return;
    }
    if (m.seq > this.lastSeq + 1 && !this.covered(this.lastSeq + 1, m.seq - 1)) {
      this.held = [m];
      void this.backfill(m.seq - 1);
      return;
    }
    this.accept(m);
  }

  private covered(from: number, to: number): boolean {
    const t = this.tolerated;
    return t !== null && from >= t.from && to <= t.to;
  }

  private onGap(m: EventEnvelope): void {
    const d = m.data as { fromSeq?: unknown; toSeq?: unknown };
    if (typeof d.fromSeq !== 'number' || typeof d.toSeq !== 'number') return;
    const from = Math.min(d.fromSeq, this.lastSeq + 1);
    this.tolerated = { from, to: d.toSeq };
    // The dropped nav_steps still belong on the timeline: fetch them without blocking live events.
    void this.fetchRange(d.fromSeq - 1, d.toSeq, 'nav_step').then((events) => this.enqueue(events));
  }

  private accept(m: EventEnvelope): void {
    this.lastSeq = m.seq;
    this.enqueue([m]);
  }

  private enqueue(events: EventEnvelope[]): void {
    if (events.length === 0) return;
    this.pending.push(...events);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.flush());
  }

  /** Applies everything accepted since the last frame (public for tests). */
  flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    applyBatch(batch, this.deps.store);
    for (const answer of this.acks.splice(0)) answer();
  }

  private async fetchRange(after: number, upTo: number, type?: string): Promise<EventEnvelope[]> {
    const runId = this.runId;
    const out: EventEnvelope[] = [];
    let cursor = after;
    while (runId !== null && cursor < upTo) {
      const page = await this.deps.fetchEvents(runId, cursor, type);
      for (const e of page.events) {
        const r = EventEnvelopeSchema.safeParse(e);
        if (r.success && r.data.seq <= upTo) out.push(r.data);
      }
      if (page.events.length === 0 || page.next_after <= cursor) break;
      cursor = page.next_after;
      if (page.events.length < PAGE_LIMIT) break;
    }
    return out;
  }

  private async backfill(upTo: number): Promise<void> {
    const runId = this.runId;
    let fetched: EventEnvelope[] = [];
    try {
      fetched = await this.fetchRange(this.lastSeq, upTo);
    } catch (e) {
      this.deps.store.setState({ error: `could not fill missing events: ${(e as Error).message}` });
    }
    if (runId !== this.runId) return;
    const held = this.held ?? [];
    this.held = null;
    for (const m of fetched) if (m.seq > this.lastSeq) this.accept(m);
    // Whatever could not be fetched is skipped rather than stalling the live view forever.
    for (const m of held) {
      if (m.seq <= this.lastSeq) continue;
      if (m.type === 'gap') this.onGap(m);
      else this.accept(m);
    }
  }
}

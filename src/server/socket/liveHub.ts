// The socket.io side of the live protocol. A client sends `subscribe {runId?, afterSeq?, fullValues?}`:
// the hub replays the committed log after `afterSeq` page by page, then streams live events, so a
// reconnecting client misses nothing and gets nothing twice. Without `runId` the client follows every
// run (live only, plus a replay of the current run when `afterSeq` is given).
// Ordering argument: the run manager commits a batch to SQLite and then calls `publish` in the same
// tick; replay reads are synchronous too. So while a client replays run R, live events of R are not
// queued (they are in the DB and the next replay page reads them); once a page comes back short, the
// client is caught up and switches to live with `lastSeq` = the last replayed seq.
// Backpressure: events go through a per-client queue that drains only while the socket's own write
// buffer is small; when the queue grows past MAX_QUEUE, intermediate nav_steps collapse (compact.ts).
import type { Server as SocketServer, Socket } from 'socket.io';
import { SubscribeMessageSchema, type EventEnvelope } from '../../domain/protocol.ts';
import { jsonPath } from '../../domain/issues.ts';
import type { RunStore } from '../db/runStore.ts';
import { compactQueue, withoutFullValues } from './compact.ts';

export interface HubOptions {
  /** Socket write-buffer packets above which we stop handing it more. */
  highWater?: number;
  /** Queued events above which intermediate nav_steps are collapsed into a gap. */
  maxQueue?: number;
  replayPage?: number;
}

interface Client {
  socket: Socket;
  follow: 'none' | 'all' | 'run';
  runId?: string;
  fullValues: boolean;
  /** Highest seq queued per run (live filter). */
  lastSeq: Map<string, number>;
  replay?: { runId: string; after: number };
  queue: EventEnvelope[];
  timer?: NodeJS.Timeout;
}

const KNOWN_MESSAGES = new Set(['subscribe', 'unsubscribe', 'ping']);

export class LiveHub {
  private readonly clients = new Map<string, Client>();
  private readonly highWater: number;
  private readonly maxQueue: number;
  private readonly page: number;
  private readonly stripped = new WeakMap<EventEnvelope, EventEnvelope>();

  constructor(
    private readonly io: SocketServer,
    private readonly store: RunStore,
    private readonly currentRunId: () => string | undefined,
    opts: HubOptions = {},
  ) {
    this.highWater = opts.highWater ?? 128;
    this.maxQueue = opts.maxQueue ?? 4096;
    this.page = opts.replayPage ?? 500;
    io.on('connection', (socket) => this.attach(socket));
  }

  private attach(socket: Socket): void {
    const client: Client = { socket, follow: 'none', fullValues: false, lastSeq: new Map(), queue: [] };
    this.clients.set(socket.id, client);
    // engine.io emits `drain` when its write buffer has been handed to the transport: the moment to
    // send more. (A short timer in pump() covers transports that never say so.)
    (socket.conn as unknown as { on?: (e: string, f: () => void) => void } | undefined)?.on?.('drain', () =>
      this.pump(client),
    );
    socket.on('disconnect', () => {
      if (client.timer) clearTimeout(client.timer);
      this.clients.delete(socket.id);
    });
    socket.on('subscribe', (msg: unknown, ack?: unknown) => this.subscribe(client, msg, ack));
    socket.on('unsubscribe', () => {
      client.follow = 'none';
      client.replay = undefined;
      client.queue = [];
    });
    socket.on('ping', (ack?: unknown) => {
      if (typeof ack === 'function') (ack as (v: unknown) => void)({ type: 'pong' });
      else socket.emit('pong', { type: 'pong' });
    });
    socket.onAny((event: unknown) => {
      if (typeof event !== 'string' || !KNOWN_MESSAGES.has(event))
        this.clientError(
          client,
          'unknown-message',
          `unknown message ${JSON.stringify(event)}; expected one of: ${[...KNOWN_MESSAGES].join(', ')}`,
        );
    });
  }

  /** A per-client, not-logged error_event (seq 0: it is not part of any run's log). */
  private clientError(client: Client, code: string, message: string, path?: string): void {
    client.socket.emit('error_event', {
      type: 'error_event',
      runId: client.runId ?? '',
      seq: 0,
      ts: new Date().toISOString(),
      data: {
        id: `ws_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 7)}`,
        ts: new Date().toISOString(),
        severity: 'error',
        source: 'ws',
        code,
        title: 'Bad socket message',
        message,
        scope: {},
        details: path ? { path } : {},
        hint: 'subscribe takes {runId?: string, afterSeq?: integer ≥ 0, fullValues?: boolean}',
      },
    });
  }

  private subscribe(client: Client, msg: unknown, ack: unknown): void {
    const reply = typeof ack === 'function' ? (ack as (v: unknown) => void) : undefined;
    const fail = (code: string, message: string, path: string) => {
      this.clientError(client, code, message, path);
      reply?.({ ok: false, error: { code, message, path } });
    };
    const r = SubscribeMessageSchema.strict().safeParse(msg ?? {});
    if (!r.success) {
      const i = r.error.issues[0];
      const path = jsonPath(i?.path ?? []);
      fail('invalid-subscribe', `subscribe ${path}: ${i?.message ?? 'invalid'}`, path);
      return;
    }
    const { runId, afterSeq, fullValues } = r.data;
    if (runId !== undefined && !this.store.getRun(runId)) {
      fail('unknown-run', `subscribe: no run ${JSON.stringify(runId)}`, '$.runId');
      return;
    }
    client.fullValues = fullValues ?? false;
    client.queue = [];
    client.lastSeq.clear();
    client.replay = undefined;
    client.follow = runId === undefined ? 'all' : 'run';
    client.runId = runId;
    const replayRun = runId ?? (afterSeq !== undefined ? this.currentRunId() : undefined);
    if (replayRun !== undefined) client.replay = { runId: replayRun, after: afterSeq ?? 0 };
    reply?.({
      ok: true,
      runId: replayRun ?? null,
      lastSeq: replayRun ? (this.store.getRun(replayRun)?.last_seq ?? 0) : 0,
    });
    this.pump(client);
  }

  /** Called by the run manager right after a batch is committed. */
  publish(events: readonly EventEnvelope[]): void {
    if (events.length === 0) return;
    for (const client of this.clients.values()) {
      try {
        this.offer(client, events);
      } catch (err) {
        // One client's trouble must never stop a run or the other clients.
        console.error(`statewire: dropping socket ${client.socket.id}: ${(err as Error).message}`);
        this.clients.delete(client.socket.id);
        client.socket.disconnect(true);
      }
    }
  }

  private offer(client: Client, events: readonly EventEnvelope[]): void {
    let added = false;
    for (const e of events) {
      if (client.follow === 'none' || (client.follow === 'run' && e.runId !== client.runId)) continue;
      if (client.replay?.runId === e.runId) continue; // the replay will read it from the log
      if (e.seq <= (client.lastSeq.get(e.runId) ?? 0)) continue;
      client.lastSeq.set(e.runId, e.seq);
      client.queue.push(e);
      added = true;
    }
    if (added) {
      this.pump(client);
      // Only a client that could not take what it was offered gets its nav_steps collapsed.
      if (client.queue.length > this.maxQueue) client.queue = compactQueue(client.queue);
    }
  }

  private buffered(client: Client): number {
    return (
      (client.socket.conn as unknown as { writeBuffer?: unknown[] } | undefined)?.writeBuffer?.length ?? 0
    );
  }

  private pump(client: Client): void {
    if (client.timer) {
      clearTimeout(client.timer);
      client.timer = undefined;
    }
    if (!client.socket.connected) return;
    for (;;) {
      if (this.buffered(client) >= this.highWater) break;
      if (client.queue.length === 0 && client.replay) this.readReplayPage(client);
      const e = client.queue.shift();
      if (!e) break;
      const out = client.fullValues ? e : this.previewOnly(e);
      client.socket.emit(e.type, out);
    }
    if (client.queue.length > 0 || client.replay) client.timer = setTimeout(() => this.pump(client), 15);
  }

  private readReplayPage(client: Client): void {
    const rp = client.replay;
    if (!rp) return;
    const page = this.store.events(rp.runId, rp.after, this.page);
    client.queue.push(...page);
    if (page.length > 0) rp.after = page[page.length - 1]?.seq ?? rp.after;
    if (page.length < this.page) {
      client.lastSeq.set(rp.runId, Math.max(rp.after, client.lastSeq.get(rp.runId) ?? 0));
      client.replay = undefined;
    }
  }

  private previewOnly(e: EventEnvelope): EventEnvelope {
    if (e.type !== 'nav_step') return e;
    let s = this.stripped.get(e);
    if (!s) {
      s = withoutFullValues(e);
      this.stripped.set(e, s);
    }
    return s;
  }

  /** Broadcast a non-run notice (graphs_changed, components_changed) to every client. */
  notice(type: string, data: unknown): void {
    this.io.emit(type, data);
  }

  get clientCount(): number {
    return this.clients.size;
  }
}

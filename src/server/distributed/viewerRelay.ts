// The server side of distributed mode's live protocol: a viewer connected to ANY server instance
// follows a batch episode executed by ANY worker, with the hub's guarantees (every event once, in
// seq order, from `afterSeq` on).
//  - `io.adapter(createAdapter(pub, sub))` (@socket.io/redis-adapter): broadcasts reach every
//    instance; the hub itself broadcasts with `io.local` (its runs live in this instance's SQLite).
//  - Workers publish each committed envelope (and every server instance each envelope of its own
//    runs, once PostgreSQL has it: runForwarder.ts) through @socket.io/redis-emitter to room
//    `run:<runId>` (distributed/worker.ts), i.e. on the Redis channel `socket.io#/#run:<runId>#`.
//    The relay listens to those channels on a subscriber connection of its own and feeds the
//    followers of those runs on this instance; runs nobody here follows are not even decoded.
//  - `subscribe {runId}` for a run that is not in this server's SQLite store is handed over by the
//    hub (LiveHub.setRemoteSource): the relay replays the run's log from PostgreSQL after `afterSeq`
//    page by page, then switches the follower to live events. Live events that arrive while it
//    replays are kept (bounded); the switch happens once a page read reached the log's head and
//    the kept events continue it without a hole — so nothing is skipped and nothing sent twice.
//  - Workers publish only the runs some instance marks as watched (worker.ts WATCH_KEY); the relay
//    marks the runs it has followers for. Until a worker notices a new mark, the log is the source.
//  - A live event that does not continue a follower's seq (a worker died after a commit and before
//    its publish; a resumed attempt then publishes the next step) sends that follower back to the
//    log, which has the missing events; an event at or below its seq is dropped.
//  - REST fallbacks: `GET /api/runs/{id}`, `…/events`, `…/graph`, `…/state?step=N`, `…/checkpoints`
//    of a run this server does not have are answered from PostgreSQL (the app's live client fills
//    holes from `…/events`).
import { createAdapter, type RedisAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import type { Server as SocketServer, Socket } from 'socket.io';
import { packEvents } from '../../domain/protocol/packedEvents.ts';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import type { RunLog } from '../db/runLog.ts';
import { withoutFullValues } from '../socket/compact.ts';
import type { RemoteRunSource, RemoteSubscribe } from '../socket/liveHub.ts';
import { WATCH_KEY, within } from './queue.ts';

/** socket.io's Redis channel prefix for the default namespace (adapter + emitter default key). */
const CHANNEL_PREFIX = 'socket.io#/#';
const RUN_CHANNEL_PREFIX = `${CHANNEL_PREFIX}run:`;
/** Watch marks: refreshed this often while a run has followers here, expiring after WATCH_TTL_MS. */
const WATCH_REFRESH_MS = 3000;
const WATCH_TTL_MS = 10_000;

export interface RelayOptions {
  /** Events per replay page (default 500). */
  page?: number;
  /** Live events kept per follower while it replays (default 20,000; past it they are read from the log). */
  maxBuffer?: number;
  /** Socket write-buffer packets above which a follower is paced from the log (default 128). */
  highWater?: number;
  /** Runs followed here although this server's store has them (copies: remoteCopies.ts). */
  claims?: (runId: string) => boolean;
}

interface Follower {
  socket: Socket;
  runId: string;
  full: boolean;
  batch: boolean;
  /** The last seq sent. */
  cursor: number;
  /** Caught up: live events go straight to it. */
  live: boolean;
  /** Live events received while replaying, in arrival order (null: overflowed, read them from the log). */
  kept: EventEnvelope[] | null;
  pumping: boolean;
  closed: boolean;
  /** Batch followers: live events of this tick, sent as one `events` message. */
  outbox: EventEnvelope[];
  /** Wakes a replay waiting for the log to grow. */
  wake?: () => void;
}

const sleep = (ms: number, f?: Follower) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      if (f) f.wake = undefined;
      resolve();
    }
    if (f) f.wake = done;
  });

export class ViewerRelay implements RemoteRunSource {
  private readonly followers = new Map<string, Set<Follower>>();
  private readonly bySocket = new Map<string, Follower>();
  /** Bumped on every subscribe/release of a socket: a lookup in flight for an older one is dropped. */
  private readonly generation = new Map<string, number>();
  private readonly page: number;
  private readonly maxBuffer: number;
  private readonly highWater: number;
  private readonly tap: Redis;
  /** Commands (the watch marks); the adapter's publishing connection. */
  private cmd?: Redis;
  private watchTimer?: NodeJS.Timeout;
  private decode: (msg: Buffer) => unknown = () => undefined;
  private readonly claimed?: (runId: string) => boolean;
  private closed = false;

  constructor(
    private readonly io: SocketServer,
    private readonly log: RunLog,
    redisUrl: string,
    opts: RelayOptions = {},
  ) {
    this.page = opts.page ?? 500;
    this.maxBuffer = opts.maxBuffer ?? 20_000;
    this.highWater = opts.highWater ?? 128;
    this.claimed = opts.claims;
    this.tap = new Redis(redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
    this.tap.on('error', () => undefined); // reconnects by itself; followers see holes filled from the log
    this.tap.on('pmessageBuffer', (_pattern: Buffer, channel: Buffer, msg: Buffer) =>
      this.onMessage(channel, msg),
    );
  }

  /** Installs the Redis adapter on `io` and starts listening for workers' run events. */
  async start(pub: Redis, sub: Redis): Promise<void> {
    this.io.adapter(createAdapter(pub, sub));
    // The emitter encodes with the adapter's parser (MessagePack): decode with the same.
    const adapter = this.io.of('/').adapter as unknown as RedisAdapter;
    this.decode = (msg) => adapter.parser.decode(msg);
    await this.tap.connect();
    await this.tap.psubscribe(`${RUN_CHANNEL_PREFIX}*`);
    this.cmd = pub;
    // Workers publish a run's events while it is marked watched (worker.ts WATCH_KEY).
    this.watchTimer = setInterval(() => this.markWatched([...this.followers.keys()]), WATCH_REFRESH_MS);
    this.watchTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.watchTimer);
    for (const f of this.bySocket.values()) this.drop(f);
    await within(
      this.tap.quit().catch(() => undefined),
      1000,
    );
    this.tap.disconnect();
  }

  get followerCount(): number {
    return this.bySocket.size;
  }

  // ---- the hub's side (RemoteRunSource) ----

  claims(runId: string): boolean {
    return this.claimed?.(runId) ?? false;
  }

  release(socket: Socket): void {
    this.generation.set(socket.id, (this.generation.get(socket.id) ?? 0) + 1);
    const f = this.bySocket.get(socket.id);
    if (f) this.drop(f);
    if (!socket.connected) this.generation.delete(socket.id);
  }

  follow(socket: Socket, req: RemoteSubscribe): void {
    this.release(socket);
    const gen = this.generation.get(socket.id) ?? 0;
    void this.log.getRun(req.runId).then(
      (row) => {
        if (this.closed || !socket.connected || this.generation.get(socket.id) !== gen) return;
        if (!row) {
          req.fail('unknown-run', `subscribe: no run ${JSON.stringify(req.runId)}`, '$.runId');
          return;
        }
        req.accepted();
        req.reply?.({ ok: true, runId: row.id, lastSeq: row.last_seq });
        const f: Follower = {
          socket,
          runId: row.id,
          full: req.fullValues === true,
          batch: req.batch === true,
          cursor: req.afterSeq ?? 0,
          live: false,
          kept: [],
          pumping: false,
          closed: false,
          outbox: [],
        };
        this.bySocket.set(socket.id, f);
        let set = this.followers.get(f.runId);
        if (!set) {
          this.followers.set(f.runId, (set = new Set()));
          this.markWatched([f.runId]);
        }
        set.add(f);
        void this.pump(f);
      },
      (err: Error) => {
        if (this.generation.get(socket.id) !== gen) return;
        req.fail('store-unavailable', `subscribe: the run log cannot be read: ${err.message}`, '$.runId');
      },
    );
  }

  /** (Re)marks runs as watched; a mark nobody refreshes expires (another instance may still need it). */
  private markWatched(runIds: string[]): void {
    if (!this.cmd || runIds.length === 0) return;
    const batch = this.cmd.pipeline();
    for (const id of runIds) batch.set(WATCH_KEY + id, '1', 'PX', WATCH_TTL_MS);
    batch.exec().catch(() => undefined); // Redis down: followers read the log meanwhile
  }

  private drop(f: Follower): void {
    f.closed = true;
    f.wake?.();
    this.bySocket.delete(f.socket.id);
    const set = this.followers.get(f.runId);
    set?.delete(f);
    if (set?.size === 0) this.followers.delete(f.runId);
  }

  // ---- live ----

  private onMessage(channel: Buffer, msg: Buffer): void {
    const name = channel.toString();
    if (!name.startsWith(RUN_CHANNEL_PREFIX) || !name.endsWith('#')) return;
    const runId = name.slice(RUN_CHANNEL_PREFIX.length, -1);
    const set = this.followers.get(runId);
    if (!set || set.size === 0) return; // nobody here follows it: not even decoded
    let env: EventEnvelope | undefined;
    try {
      const decoded = this.decode(msg) as [unknown, { data?: unknown[] } | undefined, unknown];
      const e = decoded?.[1]?.data?.[1] as EventEnvelope | undefined;
      if (e && e.runId === runId && Number.isInteger(e.seq) && typeof e.type === 'string') env = e;
    } catch {
      return;
    }
    if (!env) return;
    for (const f of [...set]) this.onLive(f, env);
  }

  private onLive(f: Follower, e: EventEnvelope): void {
    if (f.closed) return;
    if (!f.live) {
      if (f.kept && e.seq > (f.kept[f.kept.length - 1]?.seq ?? 0)) {
        f.kept.push(e); // strictly increasing: a repeat is dropped here already
        if (f.kept.length > this.maxBuffer) f.kept = null;
      }
      f.wake?.();
      return;
    }
    if (e.seq <= f.cursor) return; // already sent
    if (e.seq === f.cursor + 1 && this.buffered(f) < this.highWaterOf(f)) {
      f.cursor = e.seq;
      if (!f.batch) return this.send(f, [e]);
      // One Redis read delivers a step's events in one tick: one message for them.
      if (f.outbox.push(e) === 1) setImmediate(() => this.flush(f));
      return;
    }
    // A hole (an event committed but never published) or a slow socket: pace it from the log.
    this.flush(f);
    f.live = false;
    f.kept = [e];
    void this.pump(f);
  }

  // ---- replay ----

  private async pump(f: Follower): Promise<void> {
    if (f.pumping) return;
    f.pumping = true;
    try {
      while (!f.closed && !f.live && f.socket.connected) {
        if (this.buffered(f) >= this.highWaterOf(f)) {
          await sleep(10, f);
          continue;
        }
        let page: EventEnvelope[];
        try {
          page = await this.log.events(f.runId, f.cursor, this.page);
        } catch {
          await sleep(500, f); // the store is unreachable: try again
          continue;
        }
        if (f.closed) return;
        const fresh = page.filter((e) => e.seq > f.cursor);
        if (fresh.length > 0) {
          this.send(f, fresh);
          f.cursor = fresh[fresh.length - 1]!.seq;
          if (f.batch) await this.ack(f);
        }
        if (page.length >= this.page) continue; // more to read
        // The read reached the log's head (as of the read): go live if what arrived since continues it.
        if (f.kept === null) {
          f.kept = []; // overflowed: from now on keep again, and read what came before from the log
          continue;
        }
        const rest = f.kept.filter((e) => e.seq > f.cursor);
        if (rest.every((e, i) => e.seq === f.cursor + 1 + i)) {
          if (rest.length > 0) {
            this.send(f, rest);
            f.cursor = rest[rest.length - 1]!.seq;
          }
          f.kept = [];
          f.live = true;
          return;
        }
        // A hole between the log as read and what arrived: the log has it by now, or soon.
        f.kept = rest;
        if (fresh.length === 0) await sleep(50, f);
      }
    } finally {
      f.pumping = false;
    }
  }

  private flush(f: Follower): void {
    if (f.outbox.length === 0) return;
    const events = f.outbox;
    f.outbox = [];
    if (!f.closed) this.send(f, events);
  }

  /** Batch clients acknowledge replay batches (as the hub asks): at most one unacknowledged page. */
  private async ack(f: Follower): Promise<void> {
    try {
      await f.socket.timeout(10_000).emitWithAck('events', packEvents(f.runId, []));
    } catch {
      // no ack in time: counts as taken
    }
  }

  private send(f: Follower, events: readonly EventEnvelope[]): void {
    const out = f.full ? events : events.map(withoutFullValues);
    if (f.batch) f.socket.emit('events', packEvents(f.runId, out));
    else for (const e of out) f.socket.emit(e.type, e);
  }

  private buffered(f: Follower): number {
    return (f.socket.conn as unknown as { writeBuffer?: unknown[] } | undefined)?.writeBuffer?.length ?? 0;
  }

  private highWaterOf(f: Follower): number {
    return f.batch ? Math.max(2, Math.ceil(this.highWater / 32)) : this.highWater;
  }
}

// The socket.io side of the live protocol. A client sends `subscribe {runId?, afterSeq?, fullValues?,
// batch?}`: the hub replays the committed log after `afterSeq`, then streams live events, so a
// reconnecting client misses nothing and gets nothing twice. Without `runId` the client follows every
// run (live only, plus a replay of the current run when `afterSeq` is given).
//
// Fan-out: a client that is caught up sits in a socket.io room (one per run and delivery variant,
// one per variant for "all runs"); `publish` sends each committed batch to the room once — one
// encode, the same frame written to every member (a big batch as a few packets of ~64 KB:
// eventPackets.ts). Every send is `io.local`: this hub's runs live in this instance's SQLite, so a
// cross-instance adapter (distributed mode) must not carry them. A client that is behind
// (replaying, or fallen behind while live) is outside the room with a cursor into the log, served
// page by page by the pacer (pacer.ts): bounded pages, a per-client rate cap, a bounded share of
// the event loop (small only while a run really needs the CPU: loopLoad.ts), acknowledged batches
// (at most MAX_INFLIGHT unacknowledged per batch client), and one SQLite read and one encoding per
// page shared by every client at that position (runFeed.ts, installSharedEncoding).
// Ordering argument: the run manager commits a batch to SQLite and calls `publish` in the same tick;
// the pacer runs in its own ticks. A client is either in the room (gets every published batch) or
// has a cursor (gets the log after it); it moves from cursor to room in the same synchronous step in
// which its cursor reaches the feed's head, and from room to cursor (cursor = head) right before a
// publish it does not receive. So no event is skipped or sent twice.
// Backpressure: before each publish, a room member whose socket write buffer is full leaves the room
// and is paced from its cursor; while its backlog exceeds MAX_QUEUE, intermediate nav_steps are
// replaced by a `gap` notice (compact.ts). A replaying client is never compacted: the log is its queue.
import type { Server as SocketServer, Socket } from 'socket.io';
import { packEvents } from '../../domain/protocol/packedEvents.ts';
import { SubscribeMessageSchema, type EventEnvelope } from '../../domain/protocol/protocol.ts';
import { jsonPath } from '../../domain/validate/issues.ts';
import type { RunStore } from '../db/runStore.ts';
import { compactSlice, withoutFullValues } from './compact.ts';
import { EventPacketer, type BatchForm } from './eventPackets.ts';
import { LoopLoad } from './loopLoad.ts';
import { Pacer, type TurnResult } from './pacer.ts';
import { RunFeed } from './runFeed.ts';

export interface HubOptions {
  /** Socket write-buffer packets above which a client is treated as slow (one event per packet). */
  highWater?: number;
  /** Backlog (events) above which a client that fell behind gets intermediate nav_steps collapsed. */
  maxQueue?: number;
  /** Events per replay page (and most events sent to a client at once). */
  replayPage?: number;
  /** Events per second one client may be sent while catching up. */
  replayRate?: number;
  /** Longest pacer turn (ms). */
  sliceMs?: number;
  /** Share of the event loop the pacer may take while a run is stepping / otherwise. */
  busyShare?: number;
  idleShare?: number;
}

/**
 * Delivery variant: previews or full values × one message per event or packed `events` batches
 * (packedEvents.ts).
 */
type Variant = 'pe' | 'pb' | 'fe' | 'fb';
const VARIANTS: readonly Variant[] = ['pe', 'pb', 'fe', 'fb'];
const isBatch = (v: Variant) => v[1] === 'b';
const isFull = (v: Variant) => v[0] === 'f';
/** A slice of one run's events as an `events` batch goes on the wire (never empty here). */
const packed: BatchForm = (events) => packEvents(events[0]!.runId, events);
const runRoom = (runId: string, v: Variant) => `run:${v}:${runId}`;
const allRoom = (v: Variant) => `all:${v}`;

/** A run counts as stepping when it published this recently (ms). */
const BUSY_WINDOW_MS = 50;
/** Share of the event loop used by everything but the hub above which the hub takes its busy share. */
const BUSY_LOAD = 0.5;
/** A feed nobody needs is dropped after this long without a publish (ms). */
const FEED_IDLE_MS = 30_000;
/** Per-event packets written in one go to a cohort (members × events), so one send stays short. */
const COHORT_WRITES = 1500;
/** Per-event packets one publish may write to a room; a bigger fan-out is paced instead. */
const ROOM_WRITES = 20_000;
/**
 * Unacknowledged replay batches per batch client. Acks, not the socket's write buffer, measure how
 * fast a client really takes data: loopback and LAN sockets buffer megabytes in the kernel, and a
 * client that slow would see even its heartbeat wait behind them.
 */
const MAX_INFLIGHT = 2;
/** A batch not acknowledged by then counts as taken (a client that never acks still progresses). */
const ACK_TIMEOUT_MS = 10_000;
/** Clients served together by one broadcast (bigger groups are split so one send stays short). */
const GROUP_MAX = 40;

interface Client {
  socket: Socket;
  follow: 'none' | 'all' | 'run';
  runId?: string;
  variant: Variant;
  /** The room it is in (caught up). */
  room?: string;
  /** Outside a room: the last seq it was sent, per run. */
  cursors?: Map<string, number>;
  /** Fell behind while live: the gap rule applies to its backlog. */
  lagging: boolean;
  tokens: number;
  tokensAt: number;
  /** Replay batches sent and not yet acknowledged (batch clients). */
  inflight: number;
}

/**
 * A `subscribe` for a run this hub's store does not have, handed to another source (distributed
 * mode: distributed/viewerRelay.ts replays it from PostgreSQL and relays a worker's live events).
 * `accepted` is called once the source knows the run, before it replies and sends anything; `fail`
 * answers as the hub does for an unknown run.
 */
export interface RemoteSubscribe {
  runId: string;
  afterSeq?: number;
  fullValues?: boolean;
  batch?: boolean;
  reply?: (v: unknown) => void;
  fail: (code: string, message: string, path: string) => void;
  accepted: () => void;
}

export interface RemoteRunSource {
  follow(socket: Socket, req: RemoteSubscribe): void;
  /** Runs it follows although the store has a row of them (a copy of another instance's run). */
  claims?(runId: string): boolean;
  /** The socket subscribed anew, unsubscribed or disconnected: stop what it followed there. */
  release(socket: Socket): void;
}

// `presence` is answered by presence.ts on the same sockets.
const KNOWN_MESSAGES = new Set(['subscribe', 'unsubscribe', 'ping', 'presence']);
const SUBSCRIBE = SubscribeMessageSchema.strict();
/** Batch payloads of whole replay slices kept for the next group of clients at the same position. */
const CACHED_PAYLOADS = 128;

/** The part of socket.io's packet encoder the hub wraps (Server#encoder, public and shared by all sends). */
interface PacketEncoder {
  encode(packet: { type: number; nsp: string; id?: number; data?: unknown }): unknown[];
}

export class LiveHub {
  private readonly clients = new Map<string, Client>();
  /** Clients outside a room with a cursor (replaying or paced). */
  private readonly paced = new Set<Client>();
  private readonly rooms = new Map<string, Set<Client>>();
  private readonly feeds = new Map<string, RunFeed>();
  private readonly highWater: number;
  private readonly batchHighWater: number;
  private readonly maxQueue: number;
  private readonly page: number;
  private readonly rate: number;
  private readonly burst: number;
  private readonly stripped = new WeakMap<EventEnvelope, EventEnvelope>();
  /** Payloads sent more than once (to several groups or sockets): encoded once (installSharedEncoding). */
  private readonly shareable = new WeakSet<object>();
  /** Shareable payload → the JSON of [name, payload] as socket.io writes it (everything after the packet id). */
  private readonly encoded = new WeakMap<object, { name: unknown; json: string }>();
  /** Live batch packets per batch variant (their events differ in size). */
  private readonly packeters = new Map<Variant, EventPacketer>();
  private readonly payloads = new Map<string, object>();
  private lastPublishAt = -Infinity;
  private remote?: RemoteRunSource;
  readonly pacer: Pacer;
  private readonly load = new LoopLoad(() => this.pacer.spentMs);

  constructor(
    private readonly io: SocketServer,
    private readonly store: RunStore,
    private readonly currentRunId: () => string | undefined,
    opts: HubOptions = {},
  ) {
    this.highWater = opts.highWater ?? 128;
    // A batch packet carries ~64 KB of live events (eventPackets.ts) or a replay page: 16 of them
    // (by default; ~1 MB live) make a backlog.
    this.batchHighWater = Math.max(2, Math.ceil(this.highWater / 8));
    this.maxQueue = opts.maxQueue ?? 4096;
    this.page = opts.replayPage ?? 500;
    this.rate = opts.replayRate ?? 50_000;
    this.burst = Math.max(this.page, this.rate / 10);
    this.pacer = new Pacer(
      (deadline) => this.turn(deadline),
      // Busy: a run is publishing and the rest of the server uses most of the loop.
      () => performance.now() - this.lastPublishAt < BUSY_WINDOW_MS && this.load.others() >= BUSY_LOAD,
      {
        sliceMs: opts.sliceMs ?? 4,
        busyShare: opts.busyShare ?? 0.05,
        idleShare: opts.idleShare ?? 0.6,
        retryMs: 10,
      },
    );
    this.installSharedEncoding();
    io.on('connection', (socket) => this.attach(socket));
  }

  /**
   * socket.io encodes a packet on every emit (once per broadcast, once per single-socket emit). The
   * same replay page or event goes to many groups of clients at different moments, so its encoding is
   * kept with the payload object (payloads the hub marked shareable only; anything else, e.g. binary,
   * goes through socket.io's own encoder untouched — and so does the first encoding of a shared one).
   * A live batch packet comes with its encoding already written (eventPackets.ts).
   */
  private installSharedEncoding(): void {
    const encoder = (this.io as unknown as { encoder?: PacketEncoder }).encoder;
    if (!encoder || typeof encoder.encode !== 'function') return;
    const plain = encoder.encode.bind(encoder);
    encoder.encode = (packet) => {
      const d = packet.data;
      const payload: unknown = Array.isArray(d) && d.length === 2 ? d[1] : undefined;
      if (
        packet.type !== 2 || // EVENT
        packet.nsp !== '/' ||
        typeof payload !== 'object' ||
        payload === null ||
        !this.shareable.has(payload)
      )
        return plain(packet);
      const name = (d as unknown[])[0];
      const prefix = `2${packet.id ?? ''}`;
      const hit = this.encoded.get(payload);
      if (hit && hit.name === name) return [prefix + hit.json];
      const out = plain(packet);
      const text = out[0];
      if (out.length === 1 && typeof text === 'string' && text.startsWith(prefix))
        this.encoded.set(payload, { name, json: text.slice(prefix.length) });
      return out;
    };
  }

  /** A payload whose encoding is already written: the shared encoder sends `json` as it is. */
  private preEncoded(payload: object, name: string, json: string): void {
    this.shareable.add(payload);
    this.encoded.set(payload, { name, json });
  }

  private attach(socket: Socket): void {
    const client: Client = {
      socket,
      follow: 'none',
      variant: 'pe',
      lagging: false,
      tokens: this.burst,
      tokensAt: performance.now(),
      inflight: 0,
    };
    this.clients.set(socket.id, client);
    socket.on('disconnect', () => {
      this.remote?.release(socket);
      this.detach(client);
      this.clients.delete(socket.id);
    });
    socket.on('subscribe', (msg: unknown, ack?: unknown) => this.subscribe(client, msg, ack));
    socket.on('unsubscribe', () => {
      this.remote?.release(socket);
      this.detach(client);
      client.follow = 'none';
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
        hint: 'subscribe takes {runId?: string, afterSeq?: integer ≥ 0, fullValues?: boolean, batch?: boolean}',
      },
    });
  }

  private subscribe(client: Client, msg: unknown, ack: unknown): void {
    const reply = typeof ack === 'function' ? (ack as (v: unknown) => void) : undefined;
    const fail = (code: string, message: string, path: string) => {
      this.clientError(client, code, message, path);
      reply?.({ ok: false, error: { code, message, path } });
    };
    const r = SUBSCRIBE.safeParse(msg ?? {});
    if (!r.success) {
      const i = r.error.issues[0];
      const path = jsonPath(i?.path ?? []);
      fail('invalid-subscribe', `subscribe ${path}: ${i?.message ?? 'invalid'}`, path);
      return;
    }
    const { runId, afterSeq, fullValues, batch } = r.data;
    this.remote?.release(client.socket);
    if (runId !== undefined && (!this.store.getRun(runId) || this.remote?.claims?.(runId) === true)) {
      if (this.remote) {
        const accepted = () => {
          this.detach(client);
          client.follow = 'none';
          client.runId = runId;
        };
        this.remote.follow(client.socket, { runId, afterSeq, fullValues, batch, reply, fail, accepted });
        return;
      }
      fail('unknown-run', `subscribe: no run ${JSON.stringify(runId)}`, '$.runId');
      return;
    }
    this.detach(client);
    client.variant = `${fullValues ? 'f' : 'p'}${batch ? 'b' : 'e'}`;
    client.follow = runId === undefined ? 'all' : 'run';
    client.runId = runId;
    const replayRun = runId ?? (afterSeq !== undefined ? this.currentRunId() : undefined);
    reply?.({
      ok: true,
      runId: replayRun ?? null,
      lastSeq: replayRun ? (this.store.getRun(replayRun)?.last_seq ?? 0) : 0,
    });
    if (replayRun === undefined) {
      this.join(client); // live only, from now on
      return;
    }
    client.cursors = this.headCursors(client);
    client.cursors.set(replayRun, afterSeq ?? 0);
    this.feedFor(replayRun);
    client.lagging = false;
    this.paced.add(client);
    if (this.caughtUp(client) === 'yes') this.join(client);
    else this.pacer.wake();
  }

  /** Sends to this instance's sockets only (`io.local`; a test double without it is used as it is). */
  private get here(): Pick<SocketServer, 'to' | 'emit'> {
    return (this.io as Partial<SocketServer>).local ?? this.io;
  }

  /** Runs this hub's store does not have are asked of `source` (distributed mode). */
  setRemoteSource(source: RemoteRunSource | undefined): void {
    this.remote = source;
  }

  /** Cursors at the head of every known feed this client follows (it has everything published so far). */
  private headCursors(client: Client): Map<string, number> {
    const cursors = new Map<string, number>();
    for (const feed of this.feeds.values())
      if (client.follow === 'all' || feed.runId === client.runId) cursors.set(feed.runId, feed.head);
    if (client.follow === 'run' && client.runId !== undefined && !cursors.has(client.runId))
      cursors.set(client.runId, this.feedFor(client.runId).head);
    return cursors;
  }

  private feedFor(runId: string, headIfNew?: number): RunFeed {
    let feed = this.feeds.get(runId);
    if (feed) return feed;
    this.sweepFeeds();
    const head = headIfNew ?? this.store.getRun(runId)?.last_seq ?? 0;
    feed = new RunFeed(runId, this.store, head, {
      page: this.page,
      recent: Math.max(4 * this.page, this.maxQueue),
      cachedPages: 64,
    });
    feed.lastPublishAt = performance.now();
    this.feeds.set(runId, feed);
    // A client following every run that is catching up must not miss this run's events.
    for (const c of this.paced) if (c.follow === 'all') c.cursors?.set(runId, head);
    return feed;
  }

  /** Drops feeds of runs nobody follows that have been quiet for a while (their memory is the recent window). */
  private sweepFeeds(): void {
    const now = performance.now();
    for (const feed of this.feeds.values()) {
      if (now - feed.lastPublishAt < FEED_IDLE_MS) continue;
      if (VARIANTS.some((v) => (this.rooms.get(runRoom(feed.runId, v))?.size ?? 0) > 0)) continue;
      let needed = false;
      for (const c of this.paced) {
        const cur = c.cursors?.get(feed.runId);
        if (cur === undefined) continue;
        if (cur !== feed.head) needed = true;
      }
      if (needed) continue;
      for (const c of this.paced) c.cursors?.delete(feed.runId);
      this.feeds.delete(feed.runId);
    }
  }

  // ---- room membership ----

  private join(client: Client): void {
    this.paced.delete(client);
    client.cursors = undefined;
    client.lagging = false;
    const room =
      client.follow === 'run' && client.runId !== undefined
        ? runRoom(client.runId, client.variant)
        : allRoom(client.variant);
    let members = this.rooms.get(room);
    if (!members) this.rooms.set(room, (members = new Set()));
    members.add(client);
    client.room = room;
    void client.socket.join(room); // in-memory adapter: synchronous
  }

  private leaveRoom(client: Client): void {
    if (!client.room) return;
    this.rooms.get(client.room)?.delete(client);
    void client.socket.leave(client.room);
    client.room = undefined;
  }

  private detach(client: Client): void {
    this.leaveRoom(client);
    this.paced.delete(client);
    client.cursors = undefined;
    client.lagging = false;
  }

  /** A room member that cannot take more: out of the room, paced from what it already has. */
  private demote(client: Client): void {
    this.leaveRoom(client);
    client.cursors = this.headCursors(client);
    client.lagging = true;
    this.paced.add(client);
  }

  /** 'yes': every cursor is at its feed's head; 'no': something to send; 'ahead': waits for the log. */
  private caughtUp(client: Client): 'yes' | 'no' | 'ahead' {
    let ahead = false;
    for (const [runId, cur] of client.cursors ?? []) {
      const head = this.feedFor(runId).head;
      if (cur < head) return 'no';
      if (cur > head) ahead = true;
    }
    return ahead ? 'ahead' : 'yes';
  }

  // ---- live ----

  /** Called by the run manager right after a batch is committed (same tick). */
  publish(events: readonly EventEnvelope[]): void {
    if (events.length === 0) return;
    const now = performance.now();
    this.lastPublishAt = now;
    let i = 0;
    while (i < events.length) {
      const runId = events[i]?.runId ?? '';
      let j = i + 1;
      while (j < events.length && events[j]?.runId === runId) j++;
      const part = i === 0 && j === events.length ? events : events.slice(i, j);
      try {
        this.publishRun(runId, part, now);
      } catch (err) {
        // One client's trouble must never stop a run or the other clients.
        console.error(`statewire: live broadcast of ${runId} failed: ${(err as Error).message}`);
      }
      i = j;
    }
    if (this.paced.size > 0) this.pacer.wake();
  }

  private publishRun(runId: string, events: readonly EventEnvelope[], now: number): void {
    const feed = this.feedFor(runId, (events[0]?.seq ?? 1) - 1);
    for (const v of VARIANTS) {
      const rooms = [runRoom(runId, v), allRoom(v)];
      let members = 0;
      for (const room of rooms) {
        const set = this.rooms.get(room);
        if (!set) continue;
        for (const c of set) if (this.buffered(c) >= this.highWaterOf(c)) this.demote(c);
        members += set.size;
      }
      if (members === 0) continue;
      if (!isBatch(v) && members * events.length > ROOM_WRITES) {
        // One message per event to every member would stall the step loop: pace them instead.
        for (const room of rooms) for (const c of [...(this.rooms.get(room) ?? [])]) this.demote(c);
        continue;
      }
      const target = this.here.to(rooms.filter((r) => (this.rooms.get(r)?.size ?? 0) > 0));
      // A live batch goes out as ~64 KB packets whose JSON the packeter wrote (eventPackets.ts), in order.
      if (isBatch(v))
        for (const packet of this.packeterOf(v).packets(events.map((e) => this.view(e, isFull(v))))) {
          this.preEncoded(packet.payload, 'events', packet.json);
          target.emit('events', packet.payload);
        }
      else for (const e of events) target.emit(e.type, this.out(e, isFull(v)));
    }
    feed.append(events, now);
  }

  private packeterOf(v: Variant): EventPacketer {
    let p = this.packeters.get(v);
    if (!p) this.packeters.set(v, (p = new EventPacketer(undefined, packed)));
    return p;
  }

  // ---- catching up (pacer turns) ----

  private turn(deadline: number): TurnResult {
    for (;;) {
      if (this.paced.size === 0) return 'idle';
      const cohorts = this.cohorts(performance.now());
      if (cohorts.list.length === 0) return cohorts.blocked ? 'blocked' : 'idle';
      let served = false;
      for (const co of cohorts.list) {
        served = this.serve(co) || served; // at least one page per turn, however short the slice
        if (performance.now() >= deadline) return 'more';
      }
      if (!served) return 'blocked'; // cursors behind a head the log cannot (yet) give: retry later
    }
  }

  /** Clients that can take a page now, grouped by (run, cursor, variant, compaction): one read and one encode per group. */
  private cohorts(now: number): { list: Cohort[]; blocked: boolean } {
    const groups = new Map<string, Cohort>();
    let blocked = false;
    for (const c of [...this.paced]) {
      if (!c.socket.connected) {
        this.detach(c);
        continue;
      }
      const state = this.caughtUp(c);
      if (state === 'yes') {
        this.join(c);
        continue;
      }
      if (state === 'ahead') continue; // the next publish wakes us
      if (this.buffered(c) >= this.highWaterOf(c) || (isBatch(c.variant) && c.inflight >= MAX_INFLIGHT)) {
        blocked = true;
        continue;
      }
      c.tokens = Math.min(this.burst, c.tokens + ((now - c.tokensAt) * this.rate) / 1000);
      c.tokensAt = now;
      if (c.tokens <= 0) {
        blocked = true;
        continue;
      }
      // The run it is furthest behind on first.
      let pick: { feed: RunFeed; cursor: number } | undefined;
      for (const [runId, cursor] of c.cursors ?? []) {
        const feed = this.feedFor(runId);
        if (cursor < feed.head && (!pick || cursor < pick.cursor)) pick = { feed, cursor };
      }
      if (!pick) continue;
      const compact = c.lagging && pick.feed.head - pick.cursor > this.maxQueue;
      const key = `${pick.cursor}\u0000${c.variant}\u0000${compact ? 1 : 0}\u0000${pick.feed.runId}`;
      let g = groups.get(key);
      if (g && g.members.length >= GROUP_MAX) {
        groups.set(`${key}\u0000${groups.size}`, g); // keep the full group under another key
        g = undefined;
      }
      if (!g)
        groups.set(
          key,
          (g = { feed: pick.feed, cursor: pick.cursor, variant: c.variant, compact, members: [] }),
        );
      g.members.push(c);
    }
    // Furthest behind first: the leaders wait, so clients that subscribed at different times merge.
    return { list: [...groups.values()].sort((a, b) => a.cursor - b.cursor), blocked };
  }

  private serve(co: Cohort): boolean {
    const max = isBatch(co.variant)
      ? this.page
      : Math.max(8, Math.min(this.page, Math.floor(COHORT_WRITES / co.members.length)));
    const raw = co.feed.read(co.cursor, max);
    const last = raw[raw.length - 1]?.seq;
    if (last === undefined) return false;
    const full = isFull(co.variant);
    // One broadcast to the group: socket.io encodes and frames it once and writes the same bytes to each.
    const target = this.here.to(co.members.map((c) => c.socket.id));
    if (isBatch(co.variant)) {
      target.emit('events', this.batchPayload(co, raw));
      // Then a tiny ack request per member — an empty batch (applying it changes nothing), encoded
      // once — answered once the member has applied the batch before it.
      const ackRequest = packEvents(co.feed.runId, []);
      this.shareable.add(ackRequest);
      for (const c of co.members) {
        c.inflight++;
        let acked = false;
        c.socket.timeout(ACK_TIMEOUT_MS).emit('events', ackRequest, () => {
          if (acked) return;
          acked = true;
          c.inflight--;
          this.pacer.wake();
        });
      }
    } else {
      const slice = co.compact ? compactSlice(raw, co.feed.lastNavSeq) : raw;
      for (const e of slice) target.emit(e.type, this.out(e, full));
    }
    for (const c of co.members) {
      c.cursors?.set(co.feed.runId, last);
      c.tokens -= raw.length;
      // The handoff: in the same synchronous step as the last page, so no publish falls in between.
      if (this.caughtUp(c) === 'yes') this.join(c);
    }
    return true;
  }

  /** The `events` payload for a replay slice; a whole slice's payload is kept for the next group at that position. */
  private batchPayload(co: Cohort, raw: EventEnvelope[]): object {
    const full = isFull(co.variant);
    const runId = co.feed.runId;
    if (co.compact)
      return packEvents(
        runId,
        compactSlice(raw, co.feed.lastNavSeq).map((e) => this.out(e, full)),
      );
    const whole = raw.length === co.feed.sliceLength(co.cursor, this.page);
    const key = `${co.feed.runId}\u0000${co.cursor}\u0000${co.variant}`;
    let payload = whole ? this.payloads.get(key) : undefined;
    if (payload) return payload;
    payload = packEvents(
      runId,
      raw.map((e) => this.out(e, full)),
    );
    if (whole) {
      this.shareable.add(payload);
      this.payloads.set(key, payload);
      if (this.payloads.size > CACHED_PAYLOADS)
        this.payloads.delete(this.payloads.keys().next().value as string);
    }
    return payload;
  }

  // ---- helpers ----

  private buffered(client: Client): number {
    return (
      (client.socket.conn as unknown as { writeBuffer?: unknown[] } | undefined)?.writeBuffer?.length ?? 0
    );
  }

  private highWaterOf(client: Client): number {
    return isBatch(client.variant) ? this.batchHighWater : this.highWater;
  }

  private out(e: EventEnvelope, full: boolean): EventEnvelope {
    const s = this.view(e, full);
    this.shareable.add(s); // a logged event may go to many sockets one by one (per-event clients)
    return s;
  }

  /** The envelope as the variant sends it: nav_step without full values unless asked for. */
  private view(e: EventEnvelope, full: boolean): EventEnvelope {
    if (full || e.type !== 'nav_step') return e;
    let s = this.stripped.get(e);
    if (!s) {
      s = withoutFullValues(e);
      this.stripped.set(e, s);
    }
    return s;
  }

  /** Broadcast a non-run notice (graphs_changed, components_changed) to every client. */
  notice(type: string, data: unknown): void {
    this.here.emit(type, data);
  }

  get clientCount(): number {
    return this.clients.size;
  }

  /** Clients outside a room (replaying or paced), for tests and benches. */
  get pacedCount(): number {
    return this.paced.size;
  }
}

interface Cohort {
  feed: RunFeed;
  cursor: number;
  variant: Variant;
  compact: boolean;
  members: Client[];
}

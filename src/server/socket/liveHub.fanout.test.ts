// The hub with many clients: rooms (one send per publish however many viewers), paged replays that
// hand over to the room with no gap and no duplicate while the run keeps committing, a slow member
// moved out of the room and back, the replay page cache, and bounded work per publish and per turn.
// Sockets are stand-ins (their write buffer is what a slow network fills) over a real in-memory log;
// the real-socket paths are covered by src/server/live.test.ts and socketDrops.faults.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Server as SocketServer, Socket } from 'socket.io';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { closeDatabase, openDatabase, type Db } from '../db/database.ts';
import { RunStore } from '../db/runStore.ts';
import { batchEvents } from '../test/liveClient.testutil.ts';
import { waitFor } from '../test/serverProcess.testutil.ts';
import { LiveHub, type HubOptions } from './liveHub.ts';

class FakeSocket {
  connected = true;
  conn = { writeBuffer: [] as unknown[] };
  /** Every envelope received, batches flattened. */
  got: EventEnvelope[] = [];
  /** Messages carrying events (a batch counts once). */
  messages = 0;
  /** Empty `events` messages: the ack request after a replay batch. */
  ackRequests = 0;
  private handlers = new Map<string, (...a: unknown[]) => void>();
  constructor(
    readonly id: string,
    private readonly server: FakeServer,
  ) {
    this.join(id);
  }
  on(name: string, fn: (...a: unknown[]) => void) {
    this.handlers.set(name, fn);
    return this;
  }
  onAny() {
    return this;
  }
  join(room: string) {
    if (!this.server.rooms.has(room)) this.server.rooms.set(room, new Set());
    this.server.rooms.get(room)?.add(this);
  }
  leave(room: string) {
    this.server.rooms.get(room)?.delete(this);
  }
  /** Acknowledge `events` batches (as a client does once it applied them); off = a client that is stuck. */
  acks = true;
  pendingAcks: Array<() => void> = [];
  emit(name: string, payload: unknown, ack?: (err: Error | null) => void) {
    const batch = name === 'events' ? batchEvents(payload) : undefined;
    if (batch?.length === 0) this.ackRequests++;
    else this.messages++;
    if (batch) this.got.push(...batch);
    else this.got.push(payload as EventEnvelope);
    if (ack) {
      const done = () => ack(null);
      if (this.acks) queueMicrotask(done);
      else this.pendingAcks.push(done);
    }
    return true;
  }
  timeout() {
    return {
      emit: (name: string, payload: unknown, ack: (err: Error | null) => void) =>
        this.emit(name, payload, ack),
    };
  }
  receive(name: string, ...args: unknown[]) {
    this.handlers.get(name)?.(...args);
  }
  disconnect() {
    this.connected = false;
    for (const r of this.server.rooms.values()) r.delete(this);
    this.receive('disconnect');
  }
}

class FakeServer {
  rooms = new Map<string, Set<FakeSocket>>();
  /** io.to(…).emit calls (each is one encode in socket.io). */
  broadcasts = 0;
  private onConnection: ((s: Socket) => void) | undefined;
  readonly io = {
    on: (_: string, cb: (s: Socket) => void) => (this.onConnection = cb),
    emit: () => true,
    to: (names: string | string[]) => ({
      emit: (name: string, payload: unknown) => {
        this.broadcasts++;
        const targets = new Set<FakeSocket>();
        for (const r of [names].flat()) for (const s of this.rooms.get(r) ?? []) targets.add(s);
        for (const s of targets) s.emit(name, payload);
        return true;
      },
    }),
  } as unknown as SocketServer;
  private n = 0;
  connect(): FakeSocket {
    const s = new FakeSocket(`s${++this.n}`, this);
    this.onConnection?.(s as unknown as Socket);
    return s;
  }
}

let db: Db;
let store: RunStore;
let server: FakeServer;
let hub: LiveHub;
let seq = 0;
let storeReads = 0;

function makeHub(opts: HubOptions): void {
  server = new FakeServer();
  hub = new LiveHub(server.io, store, () => 'r', opts);
}

/** One committed batch of `steps` demo-like steps (several events, one nav_step each), published. */
function commit(steps = 1): EventEnvelope[] {
  const events: EventEnvelope[] = [];
  for (let s = 0; s < steps; s++)
    for (const type of ['node_status', 'exec_log', 'state_written', 'nav_step'] as const)
      events.push({ type, runId: 'r', seq: ++seq, ts: '2026-01-01T00:00:00.000Z', data: { step: seq } });
  store.commit('r', { events });
  hub.publish(events);
  return events;
}

const seqs = (s: FakeSocket) => s.got.map((e) => e.seq);
const oneToN = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

beforeEach(() => {
  seq = 0;
  storeReads = 0;
  db = openDatabase(':memory:');
  store = new RunStore(db);
  const events = store.events.bind(store);
  store.events = (...args: Parameters<RunStore['events']>) => {
    storeReads++;
    return events(...args);
  };
  store.createRun({
    id: 'r',
    graphName: 'g',
    graph: {},
    status: 'running',
    startedAt: 'x',
    parentRunId: null,
    parentStep: null,
    lineage: 'r',
    freshEffects: false,
    stepDelayMs: 0,
  });
});
afterEach(() => {
  hub.pacer.stop();
  closeDatabase(db);
});

describe('LiveHub fan-out', () => {
  it('sends each published batch once to a room of caught-up batch viewers', () => {
    makeHub({});
    const viewers = Array.from({ length: 50 }, () => server.connect());
    for (const v of viewers) v.receive('subscribe', { runId: 'r', batch: true });
    const before = server.broadcasts;
    for (let i = 0; i < 10; i++) commit(3);
    expect(server.broadcasts - before).toBe(10); // one io.to(room).emit per publish, not per viewer
    for (const v of viewers) {
      expect(seqs(v)).toEqual(oneToN(120));
      expect(v.messages).toBe(10);
    }
  });

  it('200 viewers subscribing from seq 0 while the run commits: each gets 1…N exactly, then joins the room', async () => {
    makeHub({ replayPage: 50, replayRate: 1e9, busyShare: 0.5 });
    for (let i = 0; i < 100; i++) commit(5); // 2,000 events in the log
    const viewers = Array.from({ length: 200 }, () => server.connect());
    for (const [i, v] of viewers.entries()) {
      v.receive('subscribe', { runId: 'r', afterSeq: 0, batch: i % 2 === 0 });
      if (i % 20 === 0) commit(2); // the run goes on while they subscribe
    }
    for (let i = 0; i < 20; i++) {
      commit(2);
      await new Promise((r) => setImmediate(r));
    }
    await waitFor(() => hub.pacedCount === 0, 20_000, 'every viewer caught up');
    commit(1);
    for (const v of viewers) expect(seqs(v)).toEqual(oneToN(seq));
    // Viewers at the same position share one log read per page: far fewer reads than 200 × pages.
    expect(storeReads).toBeLessThan(200);
  });

  it('a slow member leaves the room, catches up from its cursor and rejoins (small backlog: no gap)', async () => {
    makeHub({ highWater: 4, maxQueue: 1000, replayPage: 16 });
    const fast = server.connect();
    const slow = server.connect();
    for (const v of [fast, slow]) v.receive('subscribe', { runId: 'r' });
    commit(2);
    slow.conn.writeBuffer = Array(10).fill(0); // its network backs up
    for (let i = 0; i < 10; i++) commit(2);
    expect(hub.pacedCount).toBe(1);
    expect(seqs(fast)).toEqual(oneToN(88));
    expect(seqs(slow)).toEqual(oneToN(8));
    slow.conn.writeBuffer = [];
    await waitFor(() => hub.pacedCount === 0, 5000, 'the slow viewer to rejoin');
    commit(1);
    expect(seqs(slow)).toEqual(oneToN(92));
    expect(seqs(fast)).toEqual(oneToN(92));
  });

  it('a viewer that fell far behind gets the newest nav_step and gap notices; every other event', async () => {
    makeHub({ highWater: 4, maxQueue: 40, replayPage: 16 });
    const v = server.connect();
    v.receive('subscribe', { runId: 'r', batch: true });
    v.conn.writeBuffer = Array(10).fill(0);
    const all: EventEnvelope[] = [];
    for (let i = 0; i < 50; i++) all.push(...commit(2));
    v.conn.writeBuffer = [];
    await waitFor(() => hub.pacedCount === 0, 5000, 'caught up');
    const navs = v.got.filter((e) => e.type === 'nav_step').map((e) => e.seq);
    const gaps = v.got
      .filter((e) => e.type === 'gap')
      .map((e) => e.data as { fromSeq: number; toSeq: number });
    expect(gaps.length).toBeGreaterThan(0);
    expect(navs.at(-1)).toBe(seq);
    expect(v.got.filter((e) => e.type !== 'nav_step' && e.type !== 'gap').map((e) => e.seq)).toEqual(
      all.filter((e) => e.type !== 'nav_step').map((e) => e.seq),
    );
    for (const e of all.filter((x) => x.type === 'nav_step' && !navs.includes(x.seq)))
      expect(gaps.some((g) => g.fromSeq <= e.seq && e.seq <= g.toSeq)).toBe(true);
  });

  it('publish does no replay work: its cost does not grow with the number of replaying viewers', () => {
    makeHub({});
    for (let i = 0; i < 200; i++) commit(5);
    const time = (fn: () => void) => {
      const t = performance.now();
      fn();
      return performance.now() - t;
    };
    const idle = Math.min(...Array.from({ length: 20 }, () => time(() => commit(16))));
    for (let i = 0; i < 200; i++)
      server.connect().receive('subscribe', { runId: 'r', afterSeq: 0, batch: true });
    const busy = Math.min(...Array.from({ length: 20 }, () => time(() => commit(16))));
    expect(hub.pacedCount).toBeGreaterThan(0);
    expect(busy).toBeLessThan(idle * 5 + 1);
  });

  it('200 viewers replaying a long log: each turn sends one page to one group; the step loop runs between turns', async () => {
    makeHub({ sliceMs: 0, replayPage: 100 });
    for (let i = 0; i < 100; i++) commit(10); // 4,000 events
    const viewers = Array.from({ length: 200 }, () => server.connect());
    for (const [i, v] of viewers.entries())
      v.receive('subscribe', { runId: 'r', afterSeq: 0, batch: i % 2 === 0 });
    // A stand-in for the run manager's loop at step_delay_ms 0: one step per setImmediate.
    let turnsSeen = hub.pacer.turns;
    let reads = storeReads;
    let sent = 0;
    const messages = () => viewers.reduce((n, v) => n + v.messages, 0);
    let lastMessages = messages();
    let maxReadsPerTurn = 0;
    let maxMessagesPerTurn = 0;
    let maxTurnsBetweenSteps = 0;
    await new Promise<void>((done) => {
      const step = () => {
        if (hub.pacer.turns !== turnsSeen) {
          // Two turns can land between two steps (see below): what they did is shared out over them,
          // or a legal pair of turns (two groups, one page each) reads as one turn doing double.
          const turns = hub.pacer.turns - turnsSeen;
          maxTurnsBetweenSteps = Math.max(maxTurnsBetweenSteps, turns);
          maxReadsPerTurn = Math.max(maxReadsPerTurn, (storeReads - reads) / turns);
          maxMessagesPerTurn = Math.max(maxMessagesPerTurn, (messages() - lastMessages) / turns);
          sent += messages() - lastMessages;
          turnsSeen = hub.pacer.turns;
          reads = storeReads;
          lastMessages = messages();
        }
        if (hub.pacedCount === 0) done();
        else setImmediate(step);
      };
      step();
    });
    // (A turn on a timer and one on setImmediate can share one event-loop iteration.)
    expect(maxTurnsBetweenSteps).toBeLessThanOrEqual(2);
    expect(maxReadsPerTurn).toBeLessThanOrEqual(1);
    // One group: at most its 100 members get one message each (batch) or ≤ 1500 per-event messages.
    expect(maxMessagesPerTurn).toBeLessThanOrEqual(1500);
    expect(sent).toBeGreaterThan(0);
    for (const v of viewers) expect(seqs(v)).toEqual(oneToN(4000));
  });

  it('a batch viewer that has not acknowledged gets at most two replay batches, then more as it acks', async () => {
    makeHub({ replayPage: 10 });
    for (let i = 0; i < 25; i++) commit(1); // 100 events = 10 pages
    const v = server.connect();
    v.acks = false;
    v.receive('subscribe', { runId: 'r', afterSeq: 0, batch: true });
    await new Promise((r) => setTimeout(r, 100));
    expect(v.messages).toBe(2);
    expect(v.ackRequests).toBe(2);
    expect(seqs(v)).toEqual(oneToN(20));
    v.acks = true;
    for (const ack of v.pendingAcks.splice(0)) ack();
    await waitFor(() => hub.pacedCount === 0, 5000, 'caught up after acks');
    expect(seqs(v)).toEqual(oneToN(100));
  });

  it('a disconnected viewer is forgotten (no work for it, no room membership)', async () => {
    makeHub({});
    for (let i = 0; i < 20; i++) commit(5);
    const v = server.connect();
    v.receive('subscribe', { runId: 'r', afterSeq: 0 });
    v.disconnect();
    expect(hub.pacedCount).toBe(0);
    expect(hub.clientCount).toBe(0);
  });
});

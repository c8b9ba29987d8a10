// The delivery variants side by side over REAL sockets (socket.io server on loopback, socket.io
// clients, SQLite log): a batch client (`batch: true`, what the app asks for) and a per-event client
// subscribe in the middle of a run that keeps committing, replay the log and hand over to live.
// Each must get seq 1…N exactly once and in order; the batch client only packed `events` batches
// (packedEvents.ts, the one wire form of a batch: one per committed group once live, or a few when
// the group is big) that unpack to the very envelopes the per-event client gets one message each.
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Server as SocketServer } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { unpackEvents } from '../../domain/protocol/packedEvents.ts';
import { EVENT_TYPES, type EventEnvelope } from '../../domain/protocol/protocol.ts';
import { closeDatabase, openDatabase, type Db } from '../db/database.ts';
import { RunStore } from '../db/runStore.ts';
import { waitFor } from '../test/serverProcess.testutil.ts';
import { LiveHub } from './liveHub.ts';

const RUN = 'r';

interface Viewer {
  socket: Socket;
  got: EventEnvelope[];
  /** `events` messages that carried events (the empty ack requests of replay pages not counted). */
  batches: number;
  /** Per-event messages (named after their envelope type). */
  singles: number;
  /** `events` messages that were not a packed batch (there must be none). */
  unpacked: number;
}

let http: HttpServer;
let io: SocketServer;
let db: Db;
let store: RunStore;
let hub: LiveHub;
let url: string;
let seq = 0;
const viewers: Viewer[] = [];

beforeEach(async () => {
  seq = 0;
  http = createServer();
  io = new SocketServer(http, { serveClient: false });
  db = openDatabase(':memory:');
  store = new RunStore(db);
  store.createRun({
    id: RUN,
    graphName: 'g',
    graph: {},
    status: 'running',
    startedAt: 'x',
    parentRunId: null,
    parentStep: null,
    lineage: RUN,
    freshEffects: false,
    stepDelayMs: 0,
  });
  // A small replay page, so the replay takes several pages while the run goes on.
  hub = new LiveHub(io, store, () => RUN, { replayPage: 40 });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterEach(async () => {
  for (const v of viewers.splice(0)) v.socket.close();
  hub.pacer.stop();
  await io.close();
  closeDatabase(db);
});

/** One committed group of `steps` steps (four events each), published in the same tick, as the run manager does. */
function commit(steps: number): void {
  const events: EventEnvelope[] = [];
  for (let s = 0; s < steps; s++)
    for (const type of ['node_status', 'exec_log', 'state_written', 'nav_step'] as const)
      events.push({ type, runId: RUN, seq: ++seq, ts: '2026-01-01T00:00:00.000Z', data: { step: seq } });
  store.commit(RUN, { events });
  hub.publish(events);
}

async function viewer(): Promise<Viewer> {
  const socket = connect(url, { transports: ['websocket'], reconnection: false, forceNew: true });
  const v: Viewer = { socket, got: [], batches: 0, singles: 0, unpacked: 0 };
  for (const type of EVENT_TYPES)
    socket.on(type, (e: EventEnvelope) => {
      v.singles++;
      v.got.push(e);
    });
  socket.on('events', (batch: unknown, ack?: () => void) => {
    const r = unpackEvents(batch);
    if (!r.ok) v.unpacked++;
    else {
      if (r.events.length > 0) v.batches++;
      v.got.push(...r.events);
    }
    ack?.();
  });
  await new Promise<void>((res, rej) => {
    socket.once('connect', () => res());
    socket.once('connect_error', rej);
  });
  viewers.push(v);
  return v;
}

const seqs = (v: Viewer) => v.got.map((e) => e.seq);
const oneToN = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const turn = () => new Promise((r) => setImmediate(r));

describe('LiveHub batch and per-event clients', () => {
  it('both subscribe mid-run with afterSeq 0: replay → live with no gap and no duplicate', async () => {
    for (let i = 0; i < 30; i++) commit(2); // 240 events before anyone subscribes
    const batch = await viewer();
    const single = await viewer();
    await batch.socket.timeout(5000).emitWithAck('subscribe', { runId: RUN, afterSeq: 0, batch: true });
    await single.socket.timeout(5000).emitWithAck('subscribe', { runId: RUN, afterSeq: 0 });
    // The run keeps committing while both replay, and after they joined the live room.
    for (let i = 0; i < 40; i++) {
      commit(3);
      await turn();
    }
    await waitFor(() => batch.got.length >= seq && single.got.length >= seq, 10_000, 'both caught up');
    for (let i = 0; i < 5; i++) commit(4);
    await waitFor(() => batch.got.length >= seq && single.got.length >= seq, 10_000, 'live tail');
    expect(seqs(batch)).toEqual(oneToN(seq));
    expect(seqs(single)).toEqual(oneToN(seq));
    expect(batch.singles).toBe(0);
    expect(batch.unpacked).toBe(0);
    expect(single.batches).toBe(0);
    expect(single.singles).toBe(seq);
    // Packed on the wire, the very envelopes once unpacked.
    expect(batch.got).toEqual(single.got);
    // Batches, not messages: far fewer frames than events.
    expect(batch.batches).toBeLessThan(seq / 4);
  });

  it('a live batch client gets each committed group as one message, in order', async () => {
    const batch = await viewer();
    await batch.socket.timeout(5000).emitWithAck('subscribe', { runId: RUN, batch: true });
    // Each group is taken before the next (a client that lets writes pile up is paced instead).
    for (let i = 0; i < 10; i++) {
      commit(5);
      await waitFor(() => batch.got.length >= seq, 10_000, `group ${i + 1}`);
    }
    expect(seqs(batch)).toEqual(oneToN(200));
    expect(batch.batches).toBe(10);
    expect(batch.unpacked).toBe(0);
  });

  it('a committed group bigger than a packet arrives as several messages: same events, same order', async () => {
    const batch = await viewer();
    await batch.socket.timeout(5000).emitWithAck('subscribe', { runId: RUN, batch: true });
    const frames: number[] = [];
    batch.socket.io.engine.on('packet', (p: { type: string; data?: unknown }) => {
      if (p.type === 'message' && typeof p.data === 'string') frames.push(p.data.length);
    });
    const events: EventEnvelope[] = [];
    for (let i = 0; i < 2000; i++)
      events.push({
        type: 'exec_log',
        runId: RUN,
        seq: ++seq,
        ts: '2026-01-01T00:00:00.000Z',
        data: { step: i, note: 'n'.repeat(100) },
      });
    store.commit(RUN, { events });
    hub.publish(events); // ~330 KB of JSON in one group
    await waitFor(() => batch.got.length >= seq, 10_000, 'the group');
    expect(batch.got).toEqual(events);
    expect(batch.batches).toBeGreaterThan(3);
    expect(batch.unpacked).toBe(0);
    // Each frame stays far below V8's large-object size (~128 KB), where framing gets slow.
    expect(Math.max(...frames)).toBeLessThan(100 * 1024);
  });

  it('a batch client resubscribing with afterSeq gets exactly the rest', async () => {
    for (let i = 0; i < 10; i++) commit(3);
    const batch = await viewer();
    await batch.socket.timeout(5000).emitWithAck('subscribe', { runId: RUN, afterSeq: 0, batch: true });
    await waitFor(() => batch.got.length >= seq, 10_000, 'first replay');
    const upTo = 57;
    batch.got = batch.got.filter((e) => e.seq <= upTo); // as if it had applied only these
    await batch.socket.timeout(5000).emitWithAck('subscribe', { runId: RUN, afterSeq: upTo, batch: true });
    commit(2);
    await waitFor(() => batch.got.length >= seq, 10_000, 'the rest');
    expect(seqs(batch)).toEqual(oneToN(seq));
    expect(batch.unpacked).toBe(0);
  });

  it('a protocol-2 subscribe ({packed: true}) is refused, naming the field (every batch is packed now)', async () => {
    const old = await viewer();
    const ack = await old.socket
      .timeout(5000)
      .emitWithAck('subscribe', { runId: RUN, afterSeq: 0, batch: true, packed: true });
    expect(ack).toMatchObject({ ok: false });
    expect(JSON.stringify(ack)).toContain('packed');
  });
});

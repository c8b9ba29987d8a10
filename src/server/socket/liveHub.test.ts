// The hub's ordering and backpressure logic with a controllable socket stand-in (its write buffer is
// what a slow network would fill) over a real in-memory run log. The real-socket paths are covered by
// src/server/live.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Server as SocketServer, Socket } from 'socket.io';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { closeDatabase, openDatabase, type Db } from '../db/database.ts';
import { RunStore } from '../db/runStore.ts';
import { waitFor } from '../test/serverProcess.testutil.ts';
import { LiveHub } from './liveHub.ts';

/** Rooms of the stand-in server: socket.io puts every socket in a room named by its id. */
const rooms = new Map<string, Set<StubSocket>>();

class StubSocket {
  id = 's1';
  connected = true;
  join(room: string) {
    if (!rooms.has(room)) rooms.set(room, new Set());
    rooms.get(room)?.add(this);
  }
  leave(room: string) {
    rooms.get(room)?.delete(this);
  }
  conn = { writeBuffer: [] as unknown[], on: () => undefined };
  sent: Array<{ name: string; payload: EventEnvelope }> = [];
  private handlers = new Map<string, (...a: unknown[]) => void>();
  on(name: string, fn: (...a: unknown[]) => void) {
    this.handlers.set(name, fn);
    return this;
  }
  onAny() {
    return this;
  }
  emit(name: string, payload: EventEnvelope) {
    this.sent.push({ name, payload });
    return true;
  }
  receive(name: string, ...args: unknown[]) {
    this.handlers.get(name)?.(...args);
  }
}

let db: Db;
let store: RunStore;
let hub: LiveHub;
let sock: StubSocket;
let seq = 0;

function commit(types: Array<EventEnvelope['type']>): EventEnvelope[] {
  const events = types.map((type) => ({
    type,
    runId: 'r',
    seq: ++seq,
    ts: '2026-01-01T00:00:00.000Z',
    data: { step: seq },
  }));
  store.commit('r', { events });
  hub.publish(events);
  return events;
}

beforeEach(() => {
  seq = 0;
  db = openDatabase(':memory:');
  store = new RunStore(db);
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
  let onConnection: ((s: Socket) => void) | undefined;
  rooms.clear();
  const io = {
    on: (_: string, cb: (s: Socket) => void) => (onConnection = cb),
    emit: () => true,
    // io.to(rooms).emit: every socket in any of the rooms, once.
    to: (names: string | string[]) => ({
      emit: (name: string, payload: EventEnvelope) => {
        const targets = new Set<StubSocket>();
        for (const r of [names].flat()) for (const s of rooms.get(r) ?? []) targets.add(s);
        for (const s of targets) s.emit(name, payload);
        return true;
      },
    }),
  } as unknown as SocketServer;
  hub = new LiveHub(io, store, () => 'r', { highWater: 4, maxQueue: 20, replayPage: 7 });
  sock = new StubSocket();
  sock.join(sock.id);
  onConnection?.(sock as unknown as Socket);
});
afterEach(() => closeDatabase(db));

const sentSeqs = () => sock.sent.map((s) => s.payload.seq);

describe('LiveHub', () => {
  it('replays the log after afterSeq in pages, then goes live, with no gap and no duplicate', async () => {
    commit(Array(30).fill('exec_log'));
    sock.receive('subscribe', { runId: 'r', afterSeq: 5 });
    commit(Array(10).fill('exec_log')); // committed while the replay is still paging
    await waitFor(() => sock.sent.length >= 35, 5000, 'replay + live');
    commit(['nav_status']);
    await waitFor(() => sock.sent.length >= 36, 5000, 'live event');
    expect(sentSeqs()).toEqual(Array.from({ length: 36 }, (_, i) => i + 6));
  });

  it('a slow client gets the latest nav_step plus a gap; other events are never dropped', async () => {
    sock.receive('subscribe', { runId: 'r' });
    sock.conn.writeBuffer = Array(100).fill(0); // the network is backed up
    const all: EventEnvelope[] = [];
    for (let i = 0; i < 30; i++) all.push(...commit(['state_written', 'exec_log', 'nav_step']));
    expect(sock.sent).toHaveLength(0);
    sock.conn.writeBuffer = []; // it drains
    await waitFor(() => sock.sent.some((s) => s.payload.seq === seq), 5000, 'the last event');
    const names = sock.sent.map((s) => s.name);
    const nonNav = all.filter((e) => e.type !== 'nav_step').map((e) => e.seq);
    expect(
      sock.sent.filter((s) => s.name !== 'nav_step' && s.name !== 'gap').map((s) => s.payload.seq),
    ).toEqual(nonNav);
    expect(names.filter((n) => n === 'gap').length).toBeGreaterThan(0);
    expect(sock.sent.filter((s) => s.name === 'nav_step').at(-1)?.payload.seq).toBe(seq);
    // every nav_step the client did not get is inside a gap it did get
    const gotNav = new Set(sock.sent.filter((s) => s.name === 'nav_step').map((s) => s.payload.seq));
    const gaps = sock.sent
      .filter((s) => s.name === 'gap')
      .map((s) => s.payload.data as { fromSeq: number; toSeq: number });
    for (const e of all.filter((x) => x.type === 'nav_step' && !gotNav.has(x.seq)))
      expect(gaps.some((g) => g.fromSeq <= e.seq && e.seq <= g.toSeq)).toBe(true);
    // and the log still has everything
    expect(store.events('r', 0, 1000)).toHaveLength(90);
  });

  it('a fast client gets every event (no compaction when the socket keeps up)', async () => {
    sock.receive('subscribe', { runId: 'r' });
    for (let i = 0; i < 30; i++) commit(['exec_log', 'nav_step']);
    expect(sentSeqs()).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  });
});

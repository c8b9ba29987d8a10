import { describe, expect, it } from 'vitest';
import { packEvents } from '../../domain/protocol/packedEvents.ts';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { createRunStore } from '../run/run.store.ts';
import type { RunStatusRow } from './handlers.ts';
import { LiveClient, type EventsPage, type SocketLike } from './liveClient.ts';
import { ev, navStep, RUN } from './testEvents.testutil.ts';

class FakeSocket implements SocketLike {
  connected = true;
  handlers = new Map<string, ((...a: unknown[]) => void)[]>();
  emitted: { event: string; args: unknown[] }[] = [];
  on(event: string, fn: (...a: unknown[]) => void) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), fn]);
  }
  emit(event: string, ...args: unknown[]) {
    this.emitted.push({ event, args });
  }
  disconnect() {
    this.connected = false;
  }
  fire(event: string, ...args: unknown[]) {
    for (const fn of this.handlers.get(event) ?? []) fn(...args);
  }
  subscribes() {
    return this.emitted.filter((e) => e.event === 'subscribe').map((e) => e.args[0]);
  }
}

function setup(log: EventEnvelope[] = [], row?: () => RunStatusRow) {
  const socket = new FakeSocket();
  const store = createRunStore();
  const fetches: { after: number; type?: string }[] = [];
  const frames: (() => void)[] = [];
  const fetchEvents = async (runId: string, after: number, type?: string): Promise<EventsPage> => {
    fetches.push({ after, type });
    const events = log.filter((e) => e.runId === runId && e.seq > after && (!type || e.type === type));
    const last = events[events.length - 1];
    return { events, next_after: last ? last.seq : after, last_seq: log[log.length - 1]?.seq ?? 0 };
  };
  const client = new LiveClient({
    store,
    socket,
    fetchEvents,
    schedule: (fn) => frames.push(fn),
    ...(row ? { fetchRun: async () => row() } : {}),
  });
  const frame = () => {
    for (const f of frames.splice(0)) f();
  };
  return { socket, store, client, fetches, frame };
}

/** The events as the server packs them (each `ts` is an ISO date of whole ms, so they always pack). */
/** An `events` batch as the server sends it (packedEvents.ts). */
const packed = (events: EventEnvelope[]) => packEvents(RUN, events);

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('LiveClient', () => {
  it('asks for batches and applies an events batch in seq order, dropping what it already has', () => {
    const { socket, client, store, frame } = setup();
    client.follow(RUN);
    socket.fire('events', packed([ev('nav_status', 1, { status: 'running', step: 0 }), navStep(2, 1, 1)]));
    // A replayed page overlapping the live one: seq 2 again, then new ones.
    socket.fire('events', packed([navStep(2, 1, 99), navStep(3, 2, 2), navStep(4, 3, 3)]));
    frame();
    expect(store.getState().steps).toEqual([1, 2, 3]);
    expect(store.getState().containers.graph_state?.states.step_count?.value).toBe(3);
    expect(client.lastAppliedSeq).toBe(4);
  });

  it('answers a replay batch ack only after the batches before it are applied', () => {
    const { socket, client, store, frame } = setup();
    client.follow(RUN);
    const acks: string[] = [];
    socket.fire('events', packed([navStep(1, 1, 1), navStep(2, 2, 2)]));
    socket.fire('events', packed([]), () => acks.push(`acked at step ${store.getState().step}`));
    expect(acks).toEqual([]);
    frame();
    expect(acks).toEqual(['acked at step 2']);
    // Nothing waiting to be applied: the ack is answered at once.
    socket.fire('events', packed([]), () => acks.push('idle ack'));
    expect(acks).toEqual(['acked at step 2', 'idle ack']);
  });

  it('a hole inside a batch is filled from the events endpoint before the rest of the batch', async () => {
    const log = [navStep(1, 1, 1), navStep(2, 2, 2), navStep(3, 3, 3), navStep(4, 4, 4)];
    const { socket, client, store, fetches, frame } = setup(log);
    client.follow(RUN);
    socket.fire('events', packed([log[0]!, log[3]!]));
    await settle();
    frame();
    expect(fetches[0]).toEqual({ after: 1, type: undefined });
    expect(store.getState().steps).toEqual([1, 2, 3, 4]);
  });

  it('applies packed batches in seq order: duplicates on a replay overlap dropped, holes filled from the log', async () => {
    const log = [navStep(1, 1, 1), navStep(2, 2, 2), navStep(3, 3, 3), navStep(4, 4, 4), navStep(5, 5, 5)];
    const { socket, client, store, fetches, frame } = setup(log);
    client.follow(RUN);
    socket.fire('events', packed([log[0]!, log[1]!]));
    // Overlapping replay (seq 2 again), then a hole (seq 4 missing) inside a packed batch.
    socket.fire('events', packed([log[1]!, log[2]!, log[4]!]));
    await settle();
    frame();
    expect(fetches).toEqual([{ after: 3, type: undefined }]);
    expect(store.getState().steps).toEqual([1, 2, 3, 4, 5]);
    expect(client.lastAppliedSeq).toBe(5);
  });

  it('drops a batch it cannot read (the hole it leaves is filled from the log)', async () => {
    const log = [navStep(1, 1, 1), navStep(2, 2, 2), navStep(3, 3, 3)];
    const { socket, client, store, frame } = setup(log);
    client.follow(RUN);
    socket.fire('events', { ...packed([log[0]!, log[1]!]), dt: [0] });
    socket.fire('events', [log[0], log[1]]); // the array form of protocol 2 is no batch any more
    frame();
    expect(store.getState().steps).toEqual([]);
    socket.fire('events', packed([log[2]!]));
    await settle();
    frame();
    expect(store.getState().steps).toEqual([1, 2, 3]);
  });

  it('still understands per-event messages (a server or relay that sends them)', () => {
    const { socket, client, store, frame } = setup();
    client.follow(RUN);
    socket.fire('nav_step', navStep(1, 1, 1));
    socket.fire('events', packed([navStep(2, 2, 2)]));
    socket.fire('nav_step', navStep(3, 3, 3));
    frame();
    expect(store.getState().steps).toEqual([1, 2, 3]);
  });

  it('subscribes with runId and afterSeq, and again with the last seq on reconnect', () => {
    const { socket, client, frame } = setup();
    client.follow(RUN, 0);
    expect(socket.subscribes()).toEqual([{ runId: RUN, afterSeq: 0, batch: true }]);
    client.receive(ev('nav_status', 1, { status: 'running', step: 0 }));
    client.receive(navStep(2, 1, 1));
    frame();
    socket.fire('connect');
    expect(socket.subscribes()[1]).toEqual({ runId: RUN, afterSeq: 2, batch: true });
  });

  it('ignores duplicates, other runs and malformed envelopes', () => {
    const { client, store, frame } = setup();
    client.follow(RUN);
    client.receive(navStep(1, 1, 1));
    client.receive(navStep(1, 1, 99));
    client.receive(navStep(2, 2, 2, {}));
    client.receive({ ...navStep(3, 3, 3), runId: 'other' });
    client.receive({ type: 'nav_step', seq: 'x' });
    frame();
    expect(store.getState().steps).toEqual([1, 2]);
    expect(store.getState().containers.graph_state?.states.step_count?.value).toBe(2);
    expect(client.lastAppliedSeq).toBe(2);
  });

  it('applies at most once per frame', () => {
    const { client, store, frame } = setup();
    client.follow(RUN);
    let notified = 0;
    store.subscribe(() => notified++);
    for (let i = 1; i <= 20; i++) client.receive(navStep(i, i, i));
    expect(store.getState().steps).toEqual([]);
    frame();
    expect(notified).toBe(1);
    expect(store.getState().steps).toHaveLength(20);
  });

  it('fills a seq hole from the events endpoint before applying what came after it', async () => {
    const log = [
      ev('nav_status', 1, { status: 'running', step: 0 }),
      navStep(2, 1, 1),
      navStep(3, 2, 2),
      navStep(4, 3, 3),
      navStep(5, 4, 4),
    ];
    const { client, store, fetches, frame } = setup(log);
    client.follow(RUN);
    client.receive(log[0]);
    client.receive(log[4]); // 2..4 missing
    client.receive(log[3]); // arrives while filling: already covered, must not apply twice
    await settle();
    frame();
    expect(fetches[0]).toEqual({ after: 1, type: undefined });
    expect(store.getState().steps).toEqual([1, 2, 3, 4]);
    expect(store.getState().step).toBe(4);
    expect(client.lastAppliedSeq).toBe(5);
  });

  it('a gap notice tolerates the dropped nav_steps and fetches them for the timeline', async () => {
    const log = [
      navStep(1, 1, 1),
      navStep(2, 2, 2),
      ev('node_status', 3, { node_id: 'a', status: 'done', step: 2 }),
      navStep(4, 3, 3),
      navStep(5, 4, 4),
    ];
    const { client, store, fetches, frame } = setup(log);
    client.follow(RUN);
    client.receive(log[0]);
    // Server collapsed nav_steps 2 and 4: gap notice (seq = fromSeq), the kept node_status, the newest nav_step.
    client.receive(ev('gap', 2, { fromSeq: 2, toSeq: 4 }));
    client.receive(log[2]);
    client.receive(log[4]);
    frame();
    expect(store.getState().step).toBe(4);
    await settle();
    frame();
    expect(fetches).toEqual([{ after: 1, type: 'nav_step' }]);
    expect(store.getState().steps).toEqual([1, 2, 3, 4]);
    // Backfilled older steps do not roll the live view back.
    expect(store.getState().step).toBe(4);
    expect(store.getState().nodeStatus.a?.status).toBe('done');
  });

  it('follow() of another run starts over from its afterSeq', () => {
    const { client, socket } = setup();
    client.follow(RUN);
    client.receive(navStep(5, 1, 1));
    client.follow('run_2', 0);
    expect(socket.subscribes()[1]).toEqual({ runId: 'run_2', afterSeq: 0, batch: true });
    expect(client.lastAppliedSeq).toBe(0);
  });

  it('a refused subscribe is shown as the run error', () => {
    const { client, socket, store } = setup();
    client.follow('nope');
    const ack = socket.emitted[0]?.args[1] as (a: unknown) => void;
    ack({ ok: false, error: { message: 'subscribe: no run "nope"' } });
    expect(store.getState().error).toBe('subscribe: no run "nope"');
  });

  it('after a reconnect it re-reads the run status: a restarted server left the run interrupted', async () => {
    let row: RunStatusRow = { status: 'running', last_seq: 2 };
    const { client, socket, store, frame } = setup([], () => row);
    socket.fire('connect'); // the first connect: the status came with the follow
    client.follow(RUN);
    socket.fire('events', packed([ev('nav_status', 1, { status: 'running', step: 0 }), navStep(2, 1, 1)]));
    frame();
    await settle();
    expect(store.getState().status).toBe('running');
    // The server dies and comes back: the run's row says interrupted, its log has no event for it.
    socket.fire('disconnect');
    row = { status: 'interrupted', last_seq: 2 };
    socket.fire('connect');
    await settle();
    expect(store.getState().status).toBe('interrupted');
    expect(store.getState().log.at(-1)?.text).toBe('run is interrupted (read again after reconnecting)');
  });

  it('a re-read older than the status events already applied changes nothing', async () => {
    const { client, socket, store, frame } = setup([], () => ({ status: 'running', last_seq: 2 }));
    socket.fire('connect');
    client.follow(RUN);
    socket.fire(
      'events',
      packed([navStep(1, 1, 1), navStep(2, 2, 2), ev('nav_status', 3, { status: 'paused', step: 2 })]),
    );
    frame();
    socket.fire('connect');
    await settle();
    expect(store.getState().status).toBe('paused');
  });
});

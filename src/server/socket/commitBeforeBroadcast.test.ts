// Commit before broadcast, on a real server (in-process: real SQLite, real socket.io, the demo graph
// at step_delay_ms 0, so steps are group-committed): at the moment the hub is handed a batch to
// send, every event of it is already in the log — a subscriber can never see a seq the database does
// not have. The hub's publish is observed (not replaced) to read the log in that very tick; a batch
// client then checks it got seq 1…N once each, in order, batched (fewer messages than events).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { createServer, type StatewireServer } from '../app.ts';
import type { RunStore } from '../db/runStore.ts';
import { batchEvents } from '../test/liveClient.testutil.ts';
import { api, demoGraph, tempWorkspace, waitFor } from '../test/serverProcess.testutil.ts';
import { io } from 'socket.io-client';
import { LiveHub } from './liveHub.ts';

let server: StatewireServer;
let url: string;
let ws: ReturnType<typeof tempWorkspace>;
const original = LiveHub.prototype.publish;
/** Per published batch: how many of its events the log held when publish was called. */
const checks: Array<{ events: number; inLog: number }> = [];

beforeAll(async () => {
  LiveHub.prototype.publish = function (this: LiveHub, events: readonly EventEnvelope[]) {
    const store = (this as unknown as { store: RunStore }).store;
    const first = events[0];
    if (first) {
      const logged = store.events(first.runId, first.seq - 1, events.length);
      const same = logged.filter((e, i) => e.seq === events[i]?.seq && e.type === events[i]?.type);
      checks.push({ events: events.length, inLog: same.length });
    }
    original.call(this, events);
  };
  ws = tempWorkspace();
  server = await createServer({ workspace: ws.dir, distDir: join(ws.dir, 'no-dist'), port: 0 });
  url = (await server.listen()).url;
});
afterAll(async () => {
  LiveHub.prototype.publish = original;
  await server.close();
  ws.cleanup();
});

describe('commit before broadcast', () => {
  it('every published event is in the log when it is handed to the sockets; a batch client gets 1…N once', async () => {
    const socket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true });
    await new Promise<void>((res, rej) => {
      socket.once('connect', () => res());
      socket.once('connect_error', rej);
    });
    const got: EventEnvelope[] = [];
    let messages = 0;
    socket.on('events', (payload: unknown, ack?: () => void) => {
      const batch = batchEvents(payload);
      if (batch.length > 0) messages++;
      got.push(...batch);
      ack?.();
    });
    await socket.timeout(5000).emitWithAck('subscribe', { batch: true });
    const runId = `cbb_${Date.now()}`;
    const start = await api(url, 'POST', '/api/navigate/run', {
      loop_definition: demoGraph(60),
      execution_id: runId,
      step_delay_ms: 0,
    });
    expect(start.status).toBe(200);
    await waitFor(() => got.some((e) => e.type === 'run_result'), 60_000, 'run_result');
    socket.close();
    const mine = got.filter((e) => e.runId === runId);
    const lastSeq = (await api(url, 'GET', `/api/runs/${runId}`)).body.last_seq as number;
    expect(mine.map((e) => e.seq)).toEqual(Array.from({ length: lastSeq }, (_, i) => i + 1));
    expect(messages).toBeLessThan(mine.length / 10); // grouped, not one message per event
    expect(checks.length).toBeGreaterThan(0);
    for (const c of checks) expect(c.inLog).toBe(c.events);
  });
});

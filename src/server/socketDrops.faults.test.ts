// Fault test: socket drops over a long-ish run. A REAL `statewire serve` process runs the demo graph
// for 7 drop rounds ~2 s apart (step_delay_ms 10) while two real socket.io clients (one per delivery mode: an event per
// message, and `events` batches) lose their connection every ~2 s — alternately by destroying the TCP
// socket under the transport (an abrupt network drop; the client reconnects by itself) and by a clean
// disconnect + connect — and resubscribe with `afterSeq` = the last seq they applied. After every
// resubscribe, once the replay has caught up, the client's state (its last nav_step, full values)
// must equal the server's `GET /api/runs/{id}/state?step=N`; over the whole run its seqs must be
// exactly 1…last_seq: no hole, no duplicate, no gap notice.
import type { Socket as NetSocket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { EVENT_TYPES, type EventEnvelope } from '../domain/protocol/protocol.ts';
import { batchEvents } from './test/liveClient.testutil.ts';
import {
  api,
  demoGraph,
  startServer,
  tempWorkspace,
  waitFor,
  type ServerProcess,
} from './test/serverProcess.testutil.ts';

/** Drop rounds (each viewer drops once per round): counted, not timed, so a loaded machine still makes them all. */
const ROUNDS = 7;
const DROP_EVERY_MS = 2_000;

let server: ServerProcess;
let ws: ReturnType<typeof tempWorkspace>;

beforeAll(async () => {
  ws = tempWorkspace();
  server = await startServer(ws.dir);
});
afterAll(async () => {
  await server?.stop();
  ws?.cleanup();
});

interface Check {
  step: number;
  client: unknown;
}

/** A viewer that applies events in seq order and resubscribes after every (re)connect. */
class DroppingViewer {
  readonly socket: Socket;
  lastSeq = 0;
  holes: string[] = [];
  duplicates: number[] = [];
  gaps = 0;
  resubscribes = 0;
  lastNav: EventEnvelope | undefined;
  /** Where the log was when the last subscribe was acknowledged. */
  ackSeq = 0;
  drops = 0;

  constructor(
    base: string,
    readonly runId: string,
    readonly batch: boolean,
  ) {
    this.socket = io(base, {
      transports: ['websocket'],
      forceNew: true,
      reconnectionDelay: 50,
      reconnectionDelayMax: 200,
      randomizationFactor: 0,
    });
    if (batch)
      this.socket.on('events', (batch: unknown, ack?: () => void) => {
        batchEvents(batch).forEach((e) => this.apply(e));
        ack?.(); // replay batches are paced by these acks
      });
    else for (const type of EVENT_TYPES) this.socket.on(type, (e: EventEnvelope) => this.apply(e));
    this.socket.on('connect', () => {
      this.socket.emit(
        'subscribe',
        { runId: this.runId, afterSeq: this.lastSeq, fullValues: true, batch: this.batch },
        (ack: { ok: boolean; lastSeq: number }) => {
          expect(ack.ok).toBe(true);
          this.ackSeq = ack.lastSeq;
          this.resubscribes++;
        },
      );
    });
  }

  private apply(e: EventEnvelope): void {
    if (e.runId !== this.runId) return;
    if (e.type === 'gap') {
      this.gaps++;
      return;
    }
    if (e.seq <= this.lastSeq) {
      this.duplicates.push(e.seq);
      return;
    }
    if (e.seq !== this.lastSeq + 1) this.holes.push(`${this.lastSeq}→${e.seq}`);
    this.lastSeq = e.seq;
    if (e.type === 'nav_step') this.lastNav = e;
  }

  /** Abrupt: the TCP socket under the websocket dies; socket.io-client reconnects by itself. */
  killTransport(): void {
    const transport = (this.socket.io.engine as unknown as { transport?: { ws?: { _socket?: NetSocket } } })
      .transport;
    transport?.ws?._socket?.destroy();
    this.drops++;
  }

  /** Clean: disconnect, then connect again a moment later. */
  async reconnect(): Promise<void> {
    this.socket.disconnect();
    this.drops++;
    await new Promise((r) => setTimeout(r, 400)); // long enough for a backlog of several replay pages
    this.socket.connect();
  }

  /** The client's state: its last nav_step (full values) for that step. */
  state(): Check | undefined {
    const d = this.lastNav?.data as { step: number; containers: unknown; nodeStates: unknown } | undefined;
    return d ? { step: d.step, client: { containers: d.containers, nodeStates: d.nodeStates } } : undefined;
  }
}

async function assertSameState(base: string, v: DroppingViewer): Promise<number> {
  const resubscribes = v.resubscribes;
  await waitFor(() => v.socket.connected && v.resubscribes === resubscribes, 5000, 'reconnect settled');
  const target = v.ackSeq;
  await waitFor(() => v.lastSeq >= target, 10_000, `viewer to replay up to seq ${target}`);
  const mine = v.state();
  expect(mine).toBeDefined();
  const server = (await api(base, 'GET', `/api/runs/${v.runId}/state?step=${mine!.step}`)).body;
  // JSON round trip: what the client holds came through JSON too.
  expect(JSON.parse(JSON.stringify(mine!.client))).toEqual({
    containers: server.containers,
    nodeStates: server.nodeStates,
  });
  return mine!.step;
}

describe('socket drops over a long run', () => {
  it('after every resubscribe the client state equals the server state; seqs have no hole or duplicate', async () => {
    const base = server.url;
    const start = await api(base, 'POST', '/api/navigate/run', {
      loop_definition: demoGraph(1_000_000),
      step_delay_ms: 10,
    });
    expect(start.status).toBe(200);
    const runId = start.body.execution_id as string;
    const viewers = [new DroppingViewer(base, runId, false), new DroppingViewer(base, runId, true)];
    await waitFor(() => viewers.every((v) => v.resubscribes === 1), 10_000, 'first subscribes');

    const checkedSteps: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await new Promise((r) => setTimeout(r, DROP_EVERY_MS));
      for (const [i, v] of viewers.entries()) {
        // Alternate the kind of drop, and offset the two viewers so one drops while the other is live.
        const before = v.resubscribes;
        if ((round + i) % 2 === 0) v.killTransport();
        else await v.reconnect();
        await waitFor(() => v.resubscribes > before, 10_000, 'resubscribe after the drop');
        checkedSteps.push(await assertSameState(base, v));
      }
    }

    expect((await api(base, 'POST', '/api/navigate/run/stop', {})).status).toBe(200);
    const row = await waitFor(async () => {
      const r = (await api(base, 'GET', `/api/runs/${runId}`)).body as { status: string; last_seq: number };
      return r.status === 'stopped' ? r : undefined;
    });
    for (const v of viewers) {
      await waitFor(
        () => v.lastSeq === row.last_seq,
        10_000,
        `viewer (batch ${v.batch}) to reach the log's end`,
      );
      expect(v.holes).toEqual([]);
      expect(v.duplicates).toEqual([]);
      expect(v.gaps).toBe(0);
      expect(v.drops).toBeGreaterThanOrEqual(6);
      v.socket.close();
    }
    // The checks covered the run as it advanced, not one step over and over.
    expect(new Set(checkedSteps).size).toBeGreaterThanOrEqual(6);
  }, 180_000);
});

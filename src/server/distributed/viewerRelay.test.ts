// The viewer relay on its own: a real socket.io server whose LiveHub hands unknown runs to the
// relay, a real Redis carrying a "worker's" live events (@socket.io/redis-emitter), and a run log
// that has more than was published (a worker that died between its commit and its publish) or
// gets an event published twice. A follower must still see every logged event once, in order.
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Emitter } from '@socket.io/redis-emitter';
import { Redis } from 'ioredis';
import { Server as SocketServer } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { closeDatabase, openDatabase, type Db } from '../db/database.ts';
import { RunStore } from '../db/runStore.ts';
import { SqliteRunLog } from '../db/sqliteRunLog.ts';
import { LiveHub } from '../socket/liveHub.ts';
import { batchEvents, connectClient, type RecordingClient } from '../test/liveClient.testutil.ts';
import { hasRedis, startRedis, type RedisServer } from '../test/redisServer.ts';
import { waitFor } from '../test/serverProcess.testutil.ts';
import { ViewerRelay } from './viewerRelay.ts';
import { livePublisher } from './worker.ts';

const RUN = 'batch_relay_e1';

const ev = (seq: number, type: EventEnvelope['type'] = 'exec_log'): EventEnvelope => ({
  type,
  runId: RUN,
  seq,
  ts: new Date(1_700_000_000_000 + seq).toISOString(),
  data: { step: Math.ceil(seq / 5), level: 'info', message: `event ${seq}` },
});

describe.skipIf(!hasRedis())('viewer relay', () => {
  let redis: RedisServer;
  let dir: string;
  let localDb: Db;
  let remote: SqliteRunLog;
  let http: HttpServer;
  let io: SocketServer;
  let relay: ViewerRelay;
  let url: string;
  let pubRedis: Redis;
  let publish: (events: EventEnvelope[]) => void;
  const connections: Redis[] = [];
  const clients: RecordingClient[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), 'statewire-relay-'));
    localDb = openDatabase(join(dir, 'local.db'));
    remote = SqliteRunLog.open(join(dir, 'remote.db'));
    http = createHttpServer();
    io = new SocketServer(http, { serveClient: false });
    const hub = new LiveHub(io, new RunStore(localDb), () => undefined);
    relay = new ViewerRelay(io, remote, redis.url, { page: 7 });
    const pub = new Redis(redis.url);
    const sub = pub.duplicate();
    connections.push(pub, sub);
    await relay.start(pub, sub);
    hub.setRemoteSource(relay);
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
    const addr = http.address();
    url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    pubRedis = new Redis(redis.url, { enableAutoPipelining: true }); // as a worker publishes
    connections.push(pubRedis);
    publish = livePublisher(new Emitter(pubRedis));
    await remote.createRun({
      id: RUN,
      graphName: 'g',
      graph: { name: 'g' },
      status: 'running',
      startedAt: new Date().toISOString(),
      parentRunId: null,
      parentStep: null,
      lineage: RUN,
      freshEffects: false,
      stepDelayMs: 0,
    });
  }, 60_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await relay?.close();
    io?.close();
    await new Promise((r) => http?.close(r));
    for (const c of connections) c.disconnect();
    await remote?.close();
    if (localDb) closeDatabase(localDb);
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const commit = async (events: EventEnvelope[], opts: { publish?: boolean; skip?: number[] } = {}) => {
    await remote.commit(RUN, { events, steps: Math.ceil(events[events.length - 1]!.seq / 5) });
    if (opts.publish !== false) publish(events.filter((e) => !opts.skip?.includes(e.seq)));
  };
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ev(from + i));
  const published = async () => {
    // Lets Redis deliver what was published (one round trip on the publishing connection).
    await pubRedis.ping();
  };

  it('replays the log, then relays live events; a hole is read from the log, a repeat dropped', async () => {
    await commit(range(1, 20), { publish: false });
    const client = await connectClient(url);
    clients.push(client);
    expect(await client.subscribe({ runId: RUN, afterSeq: 3 })).toEqual({
      ok: true,
      runId: RUN,
      lastSeq: 20,
    });
    await waitFor(() => client.events.length >= 17, 10_000, 'the replay');
    await waitFor(() => relay.followerCount === 1, 5000, 'the follower');

    // Live, with seq 30 committed but never published (its worker died right after the commit) …
    for (let s = 21; s <= 40; s += 5) await commit(range(s, s + 4), { skip: [30] });
    await published();
    // … and 35 published twice (a stale publisher): nothing twice.
    publish([ev(35)]);
    await commit([ev(41, 'run_result')]);
    await waitFor(() => client.events.some((e) => e.type === 'run_result'), 10_000, 'run_result');
    expect(client.events.map((e) => e.seq)).toEqual(range(4, 41).map((e) => e.seq));
    expect(client.events).toEqual([...range(4, 40), ev(41, 'run_result')]);
    expect(client.errors).toEqual([]);
  });

  it('subscribing anew stops the earlier follow; an unknown run is refused as the hub does', async () => {
    const client = await connectClient(url);
    clients.push(client);
    expect(await client.subscribe({ runId: RUN, afterSeq: 39 })).toMatchObject({ ok: true, lastSeq: 41 });
    await waitFor(() => client.events.length === 2, 5000, 'the tail');
    expect(await client.subscribe({ runId: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'unknown-run', path: '$.runId' },
    });
    await waitFor(() => relay.followerCount === 1, 5000, 'the first client alone');
    client.socket.emit('unsubscribe');
    client.close();
    await waitFor(() => relay.followerCount === 1, 5000, 'no follower of the closed client');
    expect(client.errors.map((e) => (e.data as { code: string }).code)).toEqual(['unknown-run']);
  });

  it('a batch client gets pages, then an `events` message per published step, not per event', async () => {
    const client = await connectClient(url);
    clients.push(client);
    const batches: EventEnvelope[][] = [];
    client.socket.on('events', (batch: unknown, ack?: () => void) => {
      const list = batchEvents(batch);
      if (list.length > 0) batches.push(list);
      ack?.();
    });
    expect(await client.subscribe({ runId: RUN, afterSeq: 30, batch: true })).toMatchObject({ ok: true });
    await waitFor(() => batches.flat().length === 11, 5000, 'the replay pages');
    expect(batches.map((b) => b.length)).toEqual([7, 4]);
    await waitFor(() => relay.followerCount === 2, 5000, 'the batch follower');
    await commit(range(42, 46));
    await commit(range(47, 51));
    await waitFor(() => batches.flat().length === 21, 5000, 'the live steps');
    // Events that arrive in one Redis read go out as one message (how reads split is up to TCP).
    expect(
      batches
        .slice(2)
        .flat()
        .map((e) => e.seq),
    ).toEqual(range(42, 51).map((e) => e.seq));
    expect(batches.slice(2).length).toBeLessThan(10);
  });
});

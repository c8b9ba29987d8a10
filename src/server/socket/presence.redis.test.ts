// Presence across two server instances: two socket.io servers joined by the Redis adapter over a REAL
// Redis (as distributed mode joins them: distributed/viewerRelay.ts), each with its own Presence.
// A member on instance A and one on instance B see each other; B's member going away reaches A; an
// instance that dies without a word drops out of the others' lists at the next refresh.
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server as SocketServer } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PresenceList } from '../../domain/protocol/presence.ts';
import { hasRedis, startRedis, type RedisServer } from '../test/redisServer.ts';
import { Presence } from './presence.ts';

interface Instance {
  http: HttpServer;
  io: SocketServer;
  presence: Presence;
  redis: Redis[];
  url: string;
  /** Stopped by the test itself (its Redis links are gone). */
  gone?: boolean;
}

describe.skipIf(!hasRedis())('presence across server instances (Redis adapter)', () => {
  let redis: RedisServer;
  const instances: Instance[] = [];
  const clients: ClientSocket[] = [];

  const startInstance = async (user: string, refreshMs?: number): Promise<Instance> => {
    const http = createHttpServer();
    const io = new SocketServer(http, { serveClient: false });
    const pub = new Redis(redis.url);
    const sub = pub.duplicate();
    io.adapter(createAdapter(pub, sub, { requestsTimeout: 3000 }));
    const presence = new Presence(io, { user, refreshMs });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const inst = {
      http,
      io,
      presence,
      redis: [pub, sub],
      url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    };
    instances.push(inst);
    return inst;
  };

  const client = async (url: string) => {
    const socket = connect(url, { reconnection: false, forceNew: true, transports: ['websocket'] });
    clients.push(socket);
    const lists: PresenceList[] = [];
    socket.on('presence', (l: PresenceList) => lists.push(l));
    await new Promise<void>((resolve, reject) => {
      socket.on('connect', resolve);
      socket.on('connect_error', reject);
    });
    /** Waits for a list (received from now on) matching `ok`. */
    const next = (ok: (l: PresenceList) => boolean) =>
      new Promise<PresenceList>((resolve) => {
        const on = (l: PresenceList) => {
          if (!ok(l)) return;
          socket.off('presence', on);
          resolve(l);
        };
        socket.on('presence', on);
      });
    return { socket, lists, next };
  };

  beforeAll(async () => {
    redis = await startRedis();
  }, 60_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    for (const i of instances) {
      i.presence.close();
      if (i.gone) continue;
      await i.io.close();
      for (const r of i.redis) r.disconnect();
    }
    await redis?.stop();
  }, 60_000);

  it('lists members of both instances to both, and a departure on B reaches A', async () => {
    const a = await startInstance('Alice');
    const b = await startInstance('Bob');
    const onA = await client(a.url);
    const onB = await client(b.url);

    const alone = onA.next((l) => l.members.length === 1);
    await onA.socket.emitWithAck('presence', { tab: 'tab-on-a-0001', run: 'b1_e0' });
    expect((await alone).members.map((m) => m.name)).toEqual(['Alice']);

    // B's member joins on the other instance: A's member hears it, through Redis.
    const aSeesBoth = onA.next((l) => l.members.length === 2);
    const bSeesBoth = onB.next((l) => l.members.length === 2);
    await onB.socket.emitWithAck('presence', { tab: 'tab-on-b-0001', run: 'b1_e0' });
    for (const l of [await aSeesBoth, await bSeesBoth]) {
      expect(l.run).toBe('b1_e0');
      expect(l.members.map((m) => [m.id, m.name])).toEqual([
        ['tab-on-a-0001', 'Alice'],
        ['tab-on-b-0001', 'Bob'],
      ]);
    }

    // B's member disconnects: A's member is told it is alone again.
    const aAlone = onA.next((l) => l.members.length === 1);
    onB.socket.close();
    expect((await aAlone).members.map((m) => m.id)).toEqual(['tab-on-a-0001']);
  }, 30_000);

  it('an instance that dies without telling anyone drops out at the next refresh', async () => {
    // Refreshes are called by the test (none by timer): no lookup is in flight while C goes away.
    const a = await startInstance('Alice', 3_600_000);
    const c = await startInstance('Cleo', 3_600_000);
    const onA = await client(a.url);
    const onC = await client(c.url);
    await onA.socket.emitWithAck('presence', { tab: 'tab-on-a-0002', graph: 'g' });
    const both = onA.next((l) => l.members.length === 2);
    await onC.socket.emitWithAck('presence', { tab: 'tab-on-c-0002', graph: 'g' });
    expect((await both).members.map((m) => m.name)).toEqual(['Alice', 'Cleo']);
    // C goes away without a word: its presence sends nothing more, its sockets go, its Redis links close.
    const alone = onA.next((l) => l.members.length === 1);
    c.gone = true;
    c.presence.close();
    c.io.local.disconnectSockets(true); // `local`: through the adapter it would disconnect A's too
    c.http.close();
    for (const r of c.redis) r.disconnect();
    // Redis has let go of C (else A's lookup would wait for C's answer, time out, and leave the
    // healing to the refresh after): the servers listening for requests are the ones still up.
    const probe = new Redis(redis.url);
    try {
      for (;;) {
        const [, n] = (await probe.pubsub('NUMSUB', 'socket.io-request#/#')) as [string, number];
        if (n === instances.filter((i) => !i.gone).length) break;
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      probe.disconnect();
    }
    // Nobody told A; its next refresh asks the instances still there.
    expect(onA.lists.at(-1)?.members).toHaveLength(2);
    a.presence.refresh();
    expect((await alone).members.map((m) => m.id)).toEqual(['tab-on-a-0002']);
  }, 30_000);
});

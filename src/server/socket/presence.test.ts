// Presence on a real server (createServer, real socket.io clients): members arrive, switch and leave;
// a disconnect takes its member out of the others' list; a token's label, `--user` and "anonymous"
// name them; a bad payload gets an error event and the socket stays usable.
import { afterEach, describe, expect, it } from 'vitest';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { presenceColour, type PresenceList } from '../../domain/protocol/presence.ts';
import { createServer, type ServerOptions, type StatewireServer } from '../app.ts';
import { tempWorkspace } from '../test/serverProcess.testutil.ts';

let server: StatewireServer | undefined;
let ws: ReturnType<typeof tempWorkspace> | undefined;
const sockets: ClientSocket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  await server?.close();
  server = undefined;
  ws?.cleanup();
});

async function start(opts: Partial<ServerOptions> = {}): Promise<string> {
  ws = tempWorkspace();
  server = await createServer({ workspace: ws.dir, port: 0, logger: false, ...opts });
  return (await server.listen()).url;
}

/** A client that keeps every presence list it receives. */
interface Member {
  socket: ClientSocket;
  lists: PresenceList[];
  errors: { data: { code: string; message: string } }[];
  /** Resolves with the first list (received from now on) that satisfies `ok`. */
  next(ok: (l: PresenceList) => boolean): Promise<PresenceList>;
}

async function member(url: string, token?: string): Promise<Member> {
  const socket = connect(url, {
    reconnection: false,
    forceNew: true,
    transports: ['websocket'],
    ...(token ? { auth: { token } } : {}),
  });
  sockets.push(socket);
  const lists: PresenceList[] = [];
  const errors: Member['errors'] = [];
  const waiters: { ok: (l: PresenceList) => boolean; done: (l: PresenceList) => void }[] = [];
  socket.on('presence', (l: PresenceList) => {
    lists.push(l);
    for (const w of [...waiters])
      if (w.ok(l)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.done(l);
      }
  });
  socket.on('error_event', (e: Member['errors'][number]) => errors.push(e));
  await new Promise<void>((resolve, reject) => {
    socket.on('connect', resolve);
    socket.on('connect_error', reject);
  });
  return {
    socket,
    lists,
    errors,
    next: (ok) => new Promise((done) => waiters.push({ ok, done })),
  };
}

const ids = (l: PresenceList) => l.members.map((m) => m.id).sort();
const say = (m: Member, msg: unknown) =>
  m.socket.emitWithAck('presence', msg) as Promise<{ ok: boolean; error?: { code: string; path: string } }>;

describe('presence over the live socket', () => {
  it('lists who has a graph open on arrival, switch, leave and disconnect', async () => {
    const url = await start({ user: 'Alice' });
    const a = await member(url);
    const b = await member(url);
    const c = await member(url);

    const first = a.next((l) => l.members.length === 1);
    expect(await say(a, { tab: 'tab-aaaaaaaa', graph: 'demo' })).toEqual({ ok: true });
    expect(await first).toEqual({
      graph: 'demo',
      members: [{ id: 'tab-aaaaaaaa', name: 'Alice', colour: presenceColour('tab-aaaaaaaa') }],
    });

    // B opens the same graph: both learn of both. C opens a run: nobody on the graph hears of it.
    const aSeesB = a.next((l) => l.members.length === 2);
    const bSeesA = b.next((l) => l.members.length === 2);
    const cOnRun = c.next((l) => l.run === 'r1');
    await say(b, { tab: 'tab-bbbbbbbb', graph: 'demo' });
    await say(c, { tab: 'tab-cccccccc', run: 'r1' });
    expect(ids(await aSeesB)).toEqual(['tab-aaaaaaaa', 'tab-bbbbbbbb']);
    expect(ids(await bSeesA)).toEqual(['tab-aaaaaaaa', 'tab-bbbbbbbb']);
    expect(ids(await cOnRun)).toEqual(['tab-cccccccc']);
    expect(c.lists.every((l) => l.run === 'r1' && l.graph === undefined)).toBe(true);

    // B switches to the run: A's list loses it, C's gains it.
    const aAlone = a.next((l) => l.members.length === 1);
    const cWithB = c.next((l) => l.members.length === 2);
    await say(b, { tab: 'tab-bbbbbbbb', run: 'r1' });
    expect(ids(await aAlone)).toEqual(['tab-aaaaaaaa']);
    expect(await cWithB).toMatchObject({ run: 'r1' });
    expect(ids(await cWithB)).toEqual(['tab-bbbbbbbb', 'tab-cccccccc']);

    // B closes (its socket goes away): C is alone again.
    const cAlone = c.next((l) => l.members.length === 1);
    b.socket.close();
    expect(ids(await cAlone)).toEqual(['tab-cccccccc']);

    // C says it has nothing open: it leaves the room (A's graph list is untouched).
    expect(await say(c, { tab: 'tab-cccccccc' })).toEqual({ ok: true });
    expect(a.errors).toEqual([]);
    expect(c.errors).toEqual([]);
  });

  it('one tab with two sockets (a reconnect) is one member', async () => {
    const url = await start();
    const a = await member(url);
    const a2 = await member(url);
    const b = await member(url);
    await say(a, { tab: 'tab-aaaaaaaa', graph: 'g' });
    await say(a2, { tab: 'tab-aaaaaaaa', graph: 'g' });
    const seen = b.next((l) => l.members.length >= 2);
    await say(b, { tab: 'tab-bbbbbbbb', graph: 'g' });
    const l = await seen;
    expect(ids(l)).toEqual(['tab-aaaaaaaa', 'tab-bbbbbbbb']);
    expect(l.members.every((m) => m.name === 'anonymous')).toBe(true);
  });

  it('names the holder of a labelled token, and everyone else by --user', async () => {
    const token = 'main-token-0123456789';
    const url = await start({
      token,
      user: 'Host',
      userTokens: [{ label: 'Bob', token: 'bobs-token-0123456789' }],
    });
    const host = await member(url, token);
    const bob = await member(url, 'bobs-token-0123456789');
    await say(host, { tab: 'tab-hhhhhhhh', graph: 'shared/g' });
    const both = host.next((l) => l.members.length === 2);
    await say(bob, { tab: 'tab-bbbbbbbb', graph: 'shared/g' });
    expect((await both).members.map((m) => m.name)).toEqual(['Bob', 'Host']);
    // A wrong token is still refused.
    await expect(member(url, 'not-a-token-0123456789')).rejects.toThrow(/unauthorized/);
  });

  it('answers a bad payload with an error naming the field, and keeps the socket', async () => {
    const url = await start();
    const a = await member(url);
    const errored = new Promise((resolve) => a.socket.once('error_event', resolve));
    expect(await say(a, { tab: 'x', graph: 'g' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-presence', path: '$.tab' },
    });
    expect(await errored).toMatchObject({ type: 'error_event', data: { code: 'invalid-presence' } });
    expect(await say(a, { tab: 'tab-aaaaaaaa', graph: 'g', run: 'r' })).toMatchObject({
      ok: false,
      error: { path: '$.run' },
    });
    expect(await say(a, 'presence please')).toMatchObject({ ok: false });
    expect(await say(a, { tab: 'tab-aaaaaaaa', graph: 'g', extra: 1 })).toMatchObject({ ok: false });
    // No ack, no object: still an error event, no crash.
    a.socket.emit('presence');
    await new Promise((r) => setTimeout(r, 50));
    expect(a.errors.length).toBe(5);
    // Not an unknown message for the hub either, and the socket still works.
    expect(a.errors.every((e) => e.data.code === 'invalid-presence')).toBe(true);
    const ok = a.next((l) => l.members.length === 1);
    await say(a, { tab: 'tab-aaaaaaaa', graph: 'g' });
    expect(ids(await ok)).toEqual(['tab-aaaaaaaa']);
  });
});

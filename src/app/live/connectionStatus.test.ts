// The connection status follows socket.io's socket/manager events and the browser's online/offline
// events; back online, a waiting socket reconnects at once, a socket that stayed up resyncs.
import { describe, expect, it } from 'vitest';
import { LIVE_PROTOCOL_VERSION } from '../../domain/protocol/liveVersion.ts';
import { connectionStore, watchConnection, type StatusSocket } from './connectionStatus.ts';

class Emitter {
  private fns = new Map<string, Array<(...a: unknown[]) => void>>();
  on(event: string, fn: (...a: unknown[]) => void) {
    this.fns.set(event, [...(this.fns.get(event) ?? []), fn]);
    return this;
  }
  fire(event: string, ...args: unknown[]) {
    for (const fn of this.fns.get(event) ?? []) fn(...args);
  }
}

function setup() {
  const calls: string[] = [];
  const socket = Object.assign(new Emitter(), {
    connected: false,
    io: new Emitter(),
    connect: () => calls.push('connect'),
    disconnect: () => calls.push('disconnect'),
  });
  const win = new Emitter();
  let online = true;
  Object.defineProperty(globalThis, 'navigator', {
    value: {
      get onLine() {
        return online;
      },
    },
    configurable: true,
  });
  watchConnection(
    socket as unknown as StatusSocket,
    { addEventListener: (t: string, fn: () => void) => win.on(t, fn) } as unknown as Window,
    () => calls.push('resync'),
  );
  const state = () => connectionStore.getState().state;
  return { socket, win, calls, state, setOnline: (v: boolean) => (online = v) };
}

describe('connection status', () => {
  it('connected → reconnecting on a drop → connected; offline while the browser is', () => {
    const t = setup();
    t.socket.connected = true;
    t.socket.fire('connect');
    expect(t.state()).toBe('connected');
    t.socket.connected = false;
    t.socket.fire('disconnect', 'transport close');
    expect(t.state()).toBe('reconnecting');
    t.socket.io.fire('reconnect_attempt', 2);
    expect(connectionStore.getState().attempt).toBe(2);
    t.setOnline(false);
    t.win.fire('offline');
    expect(t.state()).toBe('offline');
    t.socket.io.fire('reconnect_attempt', 3);
    expect(t.state()).toBe('offline');
    // Back online: the waiting socket skips its backoff.
    t.setOnline(true);
    t.win.fire('online');
    expect(t.state()).toBe('reconnecting');
    expect(t.calls).toEqual(['disconnect', 'connect']);
    t.socket.connected = true;
    t.socket.fire('connect');
    expect(t.state()).toBe('connected');
    expect(connectionStore.getState().attempt).toBe(0);
  });

  it('a socket that stayed up while the browser was offline resyncs when it is back', () => {
    const t = setup();
    t.socket.connected = true;
    t.socket.fire('connect');
    t.setOnline(false);
    t.win.fire('offline');
    expect(t.state()).toBe('offline');
    t.setOnline(true);
    t.win.fire('online');
    expect(t.state()).toBe('connected');
    expect(t.calls).toEqual(['resync']);
    t.socket.io.fire('reconnect_failed');
    expect(t.state()).toBe('offline');
  });

  it('a hello with another live protocol version stops the connection with a message naming both', () => {
    const { socket, calls, state } = setup();
    socket.connected = true;
    socket.fire('connect');
    socket.fire('hello', { type: 'hello', protocol: LIVE_PROTOCOL_VERSION });
    expect(state()).toBe('connected');
    socket.fire('hello', { type: 'hello', protocol: LIVE_PROTOCOL_VERSION + 1 });
    expect(state()).toBe('incompatible');
    expect(connectionStore.getState().reason).toBe(
      `server speaks live protocol ${LIVE_PROTOCOL_VERSION + 1}, this editor speaks ${LIVE_PROTOCOL_VERSION} — reload the page`,
    );
    expect(calls).toContain('disconnect');
    // The disconnect that follows, and any reconnect, leave the message in place.
    socket.fire('disconnect', 'io client disconnect');
    socket.fire('connect');
    expect(state()).toBe('incompatible');
    connectionStore.setState({ state: 'connecting', attempt: 0, reason: null });
  });
});

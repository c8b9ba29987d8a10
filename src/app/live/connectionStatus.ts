// The live connection's state for the top bar: connected / reconnecting / offline, from socket.io's
// socket and manager events and the browser's online/offline events (wired in connection.ts).
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { protocolMismatch } from '../../domain/protocol/liveVersion.ts';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'offline' | 'incompatible';

export interface ConnectionView {
  state: ConnectionState;
  /** Reconnect attempts since the connection was lost (socket.io's manager counts them). */
  attempt: number;
  /** Why the last attempt failed, when it did. */
  reason: string | null;
}

export const connectionStore = createStore<ConnectionView>()(() => ({
  state: 'connecting',
  attempt: 0,
  reason: null,
}));

export const useConnection = <T>(pick: (s: ConnectionView) => T): T => useStore(connectionStore, pick);

/** The parts of socket.io-client's Socket (and its Manager, `io`) the status listens to. */
export interface StatusSocket {
  connected: boolean;
  on(event: string, fn: (...args: unknown[]) => void): unknown;
  connect(): unknown;
  disconnect(): unknown;
  io: { on(event: string, fn: (...args: unknown[]) => void): unknown };
}

const browserOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/**
 * Keeps `connectionStore` current. Back online, a socket waiting out its reconnect backoff (up to
 * 5 s) connects at once; the live client re-subscribes with afterSeq on `connect`, so the view
 * catches up with no gap and no duplicate.
 */
export function watchConnection(
  socket: StatusSocket,
  win: Pick<Window, 'addEventListener'> | null,
  onResync: () => void,
): void {
  // An incompatible server is final until the page reloads: later socket events change nothing.
  const set = (patch: Partial<ConnectionView>) => {
    if (connectionStore.getState().state !== 'incompatible') connectionStore.setState(patch);
  };
  const lost = (reason: string | null) =>
    set({ state: browserOffline() ? 'offline' : 'reconnecting', reason });
  socket.on('connect', () => set({ state: 'connected', attempt: 0, reason: null }));
  // The server's first message names its live protocol version; another one than ours would be
  // misread, so the editor stops following and says why (reloading loads the matching editor).
  socket.on('hello', (msg) => {
    const mismatch = protocolMismatch(msg);
    if (mismatch === null) return;
    set({ state: 'incompatible', reason: mismatch });
    socket.disconnect(); // its 'disconnect' is ignored: the state is final
  });
  socket.on('disconnect', (reason) => lost(String(reason)));
  socket.on('connect_error', (err) => {
    if (!socket.connected) lost((err as Error | undefined)?.message ?? 'connect error');
  });
  socket.io.on('reconnect_attempt', (n) => {
    set({ attempt: Number(n) || 0 });
    if (!socket.connected) lost(connectionStore.getState().reason);
  });
  socket.io.on('reconnect_failed', () => set({ state: 'offline', reason: 'gave up reconnecting' }));
  win?.addEventListener('offline', () => set({ state: 'offline', reason: 'browser offline' }));
  win?.addEventListener('online', () => {
    if (socket.connected) {
      // The socket may have survived while frames were lost: ask for everything after the last seq.
      set({ state: 'connected', reason: null });
      onResync();
      return;
    }
    set({ state: 'reconnecting', reason: 'back online' });
    // Skip the remaining backoff: a manual disconnect clears the reconnect timer, connect opens now
    // (the live client re-subscribes with afterSeq on `connect`).
    socket.disconnect();
    socket.connect();
  });
  if (socket.connected) set({ state: 'connected' });
}

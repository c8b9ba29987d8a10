// The app's one socket.io connection (same origin, default path), created on first use, and the
// LiveClient that feeds the run store from it, and the PresenceClient (who else is here) on the same
// socket. The only module that imports socket.io-client.
import { io } from 'socket.io-client';
import { apiToken } from '../api/token.ts';
import { runApi } from '../run/run.api.ts';
import { runStore } from '../run/run.store.ts';
import { watchConnection, type StatusSocket } from './connectionStatus.ts';
import { LiveClient, PAGE_LIMIT, type SocketLike } from './liveClient.ts';
import { PresenceClient } from './presence.ts';

let client: LiveClient | null = null;
let presence: PresenceClient | null = null;
let socket: SocketLike | null = null;

export function liveClient(): LiveClient {
  if (!client) {
    // websocket first, polling as the fallback (a proxy that refuses upgrades still works).
    // `auth` as a function: read at each (re)connect, so a token kept later is used.
    const s = io({
      transports: ['websocket', 'polling'],
      reconnectionDelayMax: 5000,
      auth: (cb) => {
        const token = apiToken();
        cb(token ? { token } : {});
      },
    });
    socket = s as unknown as SocketLike;
    client = new LiveClient({
      store: runStore,
      socket,
      fetchEvents: (runId, after, type) => runApi.events(runId, after, PAGE_LIMIT, type),
      fetchRun: (runId) => runApi.run(runId),
    });
    const live = client;
    watchConnection(s as unknown as StatusSocket, typeof window === 'undefined' ? null : window, () =>
      live.resync(),
    );
  }
  return client;
}

export function presenceClient(): PresenceClient {
  if (!presence) {
    liveClient();
    presence = new PresenceClient(socket!);
  }
  return presence;
}

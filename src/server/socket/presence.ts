// Who else has a graph or a run open (domain/protocol/presence.ts). A socket says what its tab has
// open with `presence {tab, graph?|run?}`; it then sits in the socket.io room `presence:graph:<id>`
// or `presence:run:<id>` (one at a time), and its member record (tab id, display name, colour) is
// kept in `socket.data.presence`. Each arrival or departure sends the room's member list to the
// whole room.
// Across server instances (distributed mode, Redis adapter): the list comes from `fetchSockets()`,
// which asks every instance for its sockets in the room together with their `data`, and the list is
// broadcast with `io.to(room)` (not `io.local`), so members on every instance receive it. In
// embedded mode the same calls stay in memory.
// Recomputations of one room on this instance are serialized (one in flight, at most one more
// queued), so a burst of arrivals costs two lookups, and the list sent last is computed last. Two
// instances changing one room at the same moment may still deliver their lists out of order, and an
// instance that dies tells no one its members left: so every `refreshMs` each instance recomputes
// the rooms it has members in and sends their lists again — the lists converge within that time (a
// room costs one lookup and one small message per instance with members in it; the editor ignores
// a list equal to the one it shows).
// The display name is the label of the token the socket presented (`socket.data.tokenLabel`, set by
// the socket auth in http/originGuard.ts), else the server's `--user`, else "anonymous".
import type { Server as SocketServer, Socket } from 'socket.io';
import {
  ANONYMOUS,
  PresenceMessageSchema,
  presenceColour,
  subjectKey,
  subjectOf,
  type PresenceList,
  type PresenceMember,
} from '../../domain/protocol/presence.ts';
import { jsonPath } from '../../domain/validate/issues.ts';

export interface PresenceOptions {
  /** `statewire serve --user`: the name of sockets that hold no labelled token. */
  user?: string;
  /** How often rooms with members here are recomputed (ms; default 15 s). */
  refreshMs?: number;
}

/** What `socket.data` holds for presence (remote sockets carry it across instances). */
interface PresenceData {
  presence?: PresenceMember & { room: string; graph?: string; run?: string };
  tokenLabel?: string;
}

const ROOM_PREFIX = 'presence:';

export class Presence {
  /** Rooms whose list is being computed here, and whether another change came in meanwhile. */
  private readonly pending = new Map<string, { again: boolean }>();
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly io: SocketServer,
    private readonly opts: PresenceOptions = {},
  ) {
    io.on('connection', (socket) => this.attach(socket));
    this.timer = setInterval(() => this.refresh(), opts.refreshMs ?? 15_000);
    this.timer.unref();
  }

  /** Stops broadcasting (the server is closing). */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
  }

  /** Recomputes every presence room that has a member on this instance (every `refreshMs`). */
  refresh(): void {
    for (const room of this.io.of('/').adapter.rooms.keys())
      if (room.startsWith(ROOM_PREFIX)) this.changed(room);
  }

  private attach(socket: Socket): void {
    socket.on('presence', (msg: unknown, ack?: unknown) => this.onMessage(socket, msg, ack));
    socket.on('disconnect', () => {
      const room = (socket.data as PresenceData).presence?.room;
      if (room) this.changed(room); // socket.io has already taken it out of its rooms
    });
  }

  private nameOf(socket: Socket): string {
    const label = (socket.data as PresenceData).tokenLabel;
    return typeof label === 'string' ? label : (this.opts.user ?? ANONYMOUS);
  }

  private onMessage(socket: Socket, msg: unknown, ack: unknown): void {
    const reply = typeof ack === 'function' ? (ack as (v: unknown) => void) : undefined;
    const r = PresenceMessageSchema.safeParse(msg);
    if (!r.success) {
      const issue = r.error.issues[0];
      const path = jsonPath(issue?.path ?? []);
      const message = `presence ${path}: ${issue?.message ?? 'invalid'}`;
      presenceError(socket, message, path);
      reply?.({ ok: false, error: { code: 'invalid-presence', message, path } });
      return;
    }
    const data = socket.data as PresenceData;
    const before = data.presence?.room;
    const subject = subjectOf(r.data);
    const room = subject ? ROOM_PREFIX + subjectKey(subject) : undefined;
    if (before && before !== room) void socket.leave(before);
    if (room && subject) {
      data.presence = {
        id: r.data.tab,
        name: this.nameOf(socket),
        colour: presenceColour(r.data.tab),
        room,
        ...subject,
      };
      void socket.join(room);
    } else delete data.presence;
    reply?.({ ok: true });
    if (before && before !== room) this.changed(before);
    if (room) this.changed(room);
  }

  /** Recompute and send `room`'s list (serialized per room; a change during a lookup queues one more). */
  private changed(room: string): void {
    const p = this.pending.get(room);
    if (p) {
      p.again = true;
      return;
    }
    const state = { again: false };
    this.pending.set(room, state);
    void (async () => {
      try {
        do {
          state.again = false;
          await this.broadcast(room);
        } while (state.again && !this.closed);
      } finally {
        this.pending.delete(room);
      }
    })();
  }

  private async broadcast(room: string): Promise<void> {
    if (this.closed) return;
    let sockets: { data: unknown }[];
    try {
      sockets = await this.io.in(room).fetchSockets();
    } catch (err) {
      // An instance that does not answer in time (Redis adapter): the next change retries.
      console.error(`statewire: presence of ${room} not sent: ${(err as Error).message}`);
      return;
    }
    const byId = new Map<string, PresenceMember>();
    let subject: { graph?: string; run?: string } = {};
    for (const s of sockets) {
      const p = (s.data as PresenceData | undefined)?.presence;
      // A socket that moved on while the lookup ran still answers with its new room: skip it.
      if (!p || p.room !== room) continue;
      subject = p.graph !== undefined ? { graph: p.graph } : { run: p.run };
      // One tab reconnecting may briefly have two sockets: one member.
      byId.set(p.id, { id: p.id, name: p.name, colour: p.colour });
    }
    if (byId.size === 0) return; // nobody left to tell
    const members = [...byId.values()].sort((a, b) =>
      a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1,
    );
    const list: PresenceList = { ...subject, members };
    if (!this.closed) this.io.to(room).emit('presence', list);
  }
}

/** A not-logged error_event for this socket only, shaped as the live hub's (seq 0: no run's log). */
function presenceError(socket: Socket, message: string, path: string): void {
  const ts = new Date().toISOString();
  socket.emit('error_event', {
    type: 'error_event',
    runId: '',
    seq: 0,
    ts,
    data: {
      id: `ws_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 7)}`,
      ts,
      severity: 'error',
      source: 'ws',
      code: 'invalid-presence',
      title: 'Bad socket message',
      message,
      scope: {},
      details: { path },
      hint: 'presence takes {tab: string (8–64 of A-Z a-z 0-9 _ -), graph?: string, run?: string}',
    },
  });
}

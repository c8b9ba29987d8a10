// A real socket.io client that records every envelope it receives, plus log helpers to compare what
// a client saw with what the server's log holds.
import { io, type Socket } from 'socket.io-client';
import { unpackEvents } from '../../domain/protocol/packedEvents.ts';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { EVENT_TYPES } from '../../domain/protocol/protocol.ts';
import { api, waitFor } from './serverProcess.testutil.ts';

export interface RecordingClient {
  socket: Socket;
  events: EventEnvelope[];
  errors: EventEnvelope[];
  subscribe(msg: unknown): Promise<unknown>;
  close(): void;
}

export async function connectClient(url: string): Promise<RecordingClient> {
  const socket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true });
  const events: EventEnvelope[] = [];
  const errors: EventEnvelope[] = [];
  for (const type of EVENT_TYPES) {
    socket.on(type, (e: EventEnvelope) => {
      if (type === 'error_event' && e.seq === 0) errors.push(e);
      else events.push(e);
    });
  }
  await new Promise<void>((res, rej) => {
    socket.once('connect', () => res());
    socket.once('connect_error', rej);
  });
  return {
    socket,
    events,
    errors,
    subscribe: (msg) => socket.timeout(5000).emitWithAck('subscribe', msg),
    close: () => socket.close(),
  };
}

/** The envelopes of an `events` batch (packed: packedEvents.ts); one that does not unpack throws, naming why. */
export function batchEvents(payload: unknown): EventEnvelope[] {
  const r = unpackEvents(payload);
  if (!r.ok) throw new Error(r.error);
  return r.events;
}

/** The whole committed log of a run, paged through /api/runs/{id}/events. */
export async function fullLog(base: string, runId: string): Promise<EventEnvelope[]> {
  const out: EventEnvelope[] = [];
  let after = 0;
  for (;;) {
    const { body } = await api(base, 'GET', `/api/runs/${runId}/events?after=${after}&limit=5000`);
    out.push(...(body.events as EventEnvelope[]));
    if (body.events.length < 5000) return out;
    after = body.next_after;
  }
}

export async function waitStatus(
  base: string,
  runId: string,
  statuses: string[],
  ms = 20_000,
): Promise<{ status: string; steps: number }> {
  return waitFor(
    async () => {
      const { body } = await api(base, 'GET', `/api/runs/${runId}`);
      return statuses.includes(body.status) ? body : undefined;
    },
    ms,
    `run ${runId} to reach ${statuses.join('/')}`,
  );
}

/**
 * Checks a client's received stream for one run against the log: strictly increasing seqs (no
 * duplicates), every non-nav_step log event in (fromSeq, toSeq] received, and every log nav_step that
 * was not received covered by a `gap` notice (backpressure). Returns the number of dropped nav_steps.
 */
export function assertMatchesLog(
  received: readonly EventEnvelope[],
  log: readonly EventEnvelope[],
  fromSeq = 0,
): { dropped: number } {
  const seqs = received.filter((e) => e.type !== 'gap').map((e) => e.seq);
  for (let i = 1; i < seqs.length; i++)
    if ((seqs[i] ?? 0) <= (seqs[i - 1] ?? 0))
      throw new Error(`seq not increasing at ${i}: ${seqs[i - 1]} then ${seqs[i]}`);
  const got = new Map(received.filter((e) => e.type !== 'gap').map((e) => [e.seq, e]));
  const gaps = received
    .filter((e) => e.type === 'gap')
    .map((e) => e.data as { fromSeq: number; toSeq: number });
  let dropped = 0;
  for (const e of log) {
    if (e.seq <= fromSeq) continue;
    const r = got.get(e.seq);
    if (r) {
      if (r.type !== e.type) throw new Error(`seq ${e.seq}: received ${r.type}, log has ${e.type}`);
      continue;
    }
    if (e.type === 'nav_step' && gaps.some((g) => g.fromSeq <= e.seq && e.seq <= g.toSeq)) {
      dropped++;
      continue;
    }
    throw new Error(`log event seq ${e.seq} (${e.type}) was never received and no gap covers it`);
  }
  for (const s of got.keys())
    if (s <= fromSeq || !log.some((e) => e.seq === s))
      throw new Error(`received seq ${s} that the log does not have after ${fromSeq}`);
  return { dropped };
}

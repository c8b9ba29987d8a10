// Backpressure for one slow client, as a pure function over its outgoing queue: every nav_step of a
// run except the newest is dropped and a `gap {fromSeq, toSeq}` notice takes the place of the first
// dropped one (the client fetches the range from /api/runs/{id}/events if it needs it). Every other
// event type is kept, in order; the log itself always has everything.
import { isNdArraySummary } from '../../domain/services/ndarray.ts';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';

export function compactQueue(queue: readonly EventEnvelope[]): EventEnvelope[] {
  const lastNav = new Map<string, number>();
  queue.forEach((e, i) => {
    if (e.type === 'nav_step') lastNav.set(e.runId, i);
  });
  const dropped = new Map<string, { from: number; to: number; at: number }>();
  queue.forEach((e, i) => {
    if (e.type !== 'nav_step' || lastNav.get(e.runId) === i) return;
    const d = dropped.get(e.runId);
    if (d) d.to = e.seq;
    else dropped.set(e.runId, { from: e.seq, to: e.seq, at: i });
  });
  if (dropped.size === 0) return [...queue];
  const out: EventEnvelope[] = [];
  queue.forEach((e, i) => {
    const d = dropped.get(e.runId);
    if (d && d.at === i)
      out.push({
        type: 'gap',
        runId: e.runId,
        seq: d.from,
        ts: e.ts,
        data: { fromSeq: d.from, toSeq: d.to },
      });
    if (e.type === 'nav_step' && lastNav.get(e.runId) !== i) return;
    out.push(e);
  });
  return out;
}

/**
 * The same rule for a slice of a lagging client's backlog read from the log: nav_steps older than
 * `keepFrom` (the run's newest nav_step) are dropped, one `gap {fromSeq, toSeq}` takes the place of
 * the first dropped one; every other event is kept in order.
 */
export function compactSlice(slice: readonly EventEnvelope[], keepFrom: number): EventEnvelope[] {
  const out: EventEnvelope[] = [];
  let gap: { at: number; from: number; to: number; e: EventEnvelope } | undefined;
  for (const e of slice) {
    if (e.type === 'nav_step' && e.seq < keepFrom) {
      if (gap) gap.to = e.seq;
      else {
        gap = { at: out.length, from: e.seq, to: e.seq, e };
        out.push(e); // placeholder, replaced below
      }
      continue;
    }
    out.push(e);
  }
  if (gap)
    out[gap.at] = {
      type: 'gap',
      runId: gap.e.runId,
      seq: gap.from,
      ts: gap.e.ts,
      data: { fromSeq: gap.from, toSeq: gap.to },
    };
  return out;
}

/**
 * nav_step without full slot values (the reference's preview shape plus lifetime); the same for the
 * state a breakpoint_hit carries when it paused inside a step (the client shows both alike).
 */
export function withoutFullValues(e: EventEnvelope): EventEnvelope {
  if (e.type === 'nav_step') {
    const data = e.data as { containers?: Record<string, PreviewableContainer> } | null;
    if (!data?.containers) return e;
    return { ...e, data: { ...data, containers: previewContainers(data.containers) } };
  }
  if (e.type === 'breakpoint_hit') {
    const data = e.data as { state?: { containers?: Record<string, PreviewableContainer> } } | null;
    if (!data?.state?.containers) return e;
    return {
      ...e,
      data: { ...data, state: { ...data.state, containers: previewContainers(data.state.containers) } },
    };
  }
  return e;
}

type PreviewableContainer = { states?: Record<string, Record<string, unknown>> };

function previewContainers(containers: Record<string, PreviewableContainer>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [cid, c] of Object.entries(containers)) {
    const states: Record<string, unknown> = {};
    for (const [slot, s] of Object.entries(c.states ?? {})) {
      const { value, keyed, ...rest } = s;
      void keyed;
      // Numbers and booleans keep `value` (the reference's preview shape); everything else is previewed.
      // Array summaries (a picture and a few numbers, not the bytes) are kept too: they are what a viewer shows.
      const keep = typeof value === 'number' || typeof value === 'boolean' || isNdArraySummary(value);
      states[slot] = keep ? { ...rest, value } : rest;
    }
    out[cid] = { ...c, states };
  }
  return out;
}

// Who last wrote each slot (and each key of a keyed slot) up to a step, from the run's log:
// `state_written` events name the node; a lifetime `signal` that cleared a slot is its "writer" from
// then on; a `restored` event (Restore rewinds a run) drops what the abandoned steps wrote. Read up to
// the snapshot event stateAt uses for the step, so writers and values agree. A fork's history up to
// its fork point is its parent's (as in RunManager.stateAt).
import type { SlotWriter } from '../../domain/debug/stateDiff.ts';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import type { RunStore } from '../db/runStore.ts';

/** Per `container/slot[/key]`, every write still on the run's timeline, oldest first. */
export type WriterHistory = Map<string, SlotWriter[]>;

const keyOf = (c: string, s: string, k?: string) => (k === undefined ? `${c}/${s}` : `${c}/${s}/${k}`);
const PAGE = 5000;

/**
 * Folds events (seq order) into `history` (mutated and returned). A signal carries no step: it is
 * dated by the writes before it.
 */
export function foldWriters(
  events: readonly EventEnvelope[],
  runId: string,
  history: WriterHistory = new Map(),
): WriterHistory {
  let step = 0;
  const push = (w: SlotWriter) => {
    const k = keyOf(w.container, w.slot, w.key);
    const list = history.get(k);
    if (list) list.push(w);
    else history.set(k, [w]);
  };
  for (const e of events) {
    const d = e.data as Record<string, unknown>;
    if (e.type === 'state_written') {
      step = typeof d.step === 'number' ? d.step : step;
      push({
        container: String(d.container),
        slot: String(d.slot),
        ...(typeof d.key === 'string' ? { key: d.key } : {}),
        node_id: String(d.node_id),
        reducer: String(d.reducer),
        step,
        seq: e.seq,
        run_id: runId,
      });
    } else if (e.type === 'signal') {
      const name = String(d.signal);
      // step_end follows its step's nav_step, step_start opens the next step: both count from step + 1.
      const at = name === 'step_end' || name === 'step_start' ? step + 1 : step;
      for (const c of (d.cleared ?? []) as Array<{ container: string; slot: string; key?: string }>)
        push({
          container: c.container,
          slot: c.slot,
          ...(c.key !== undefined ? { key: c.key } : {}),
          signal: name,
          step: at,
          seq: e.seq,
          run_id: runId,
        });
    } else if (e.type === 'restored') {
      const to = typeof d.restored_to === 'number' ? d.restored_to : Number(d.step);
      step = to;
      for (const [k, list] of history) {
        const kept = list.filter((w) => w.step <= to);
        if (kept.length === 0) history.delete(k);
        else history.set(k, kept);
      }
    }
  }
  return history;
}

/** The latest write at or before `step` of every slot/key in `history`. */
export function writersUpTo(history: WriterHistory, step: number): SlotWriter[] {
  const out: SlotWriter[] = [];
  for (const list of history.values()) {
    for (let i = list.length - 1; i >= 0; i--)
      if (list[i]!.step <= step) {
        out.push(list[i]!);
        break;
      }
  }
  return out.sort((a, b) => a.seq - b.seq);
}

function eventsUpTo(store: RunStore, runId: string, maxSeq: number): EventEnvelope[] {
  const all: EventEnvelope[] = [];
  for (const type of ['state_written', 'signal', 'restored']) {
    let after = 0;
    for (;;) {
      const page = store.events(runId, after, PAGE, type);
      for (const e of page) if (e.seq <= maxSeq) all.push(e);
      const last = page[page.length - 1];
      if (page.length < PAGE || !last || last.seq > maxSeq) break;
      after = last.seq;
    }
  }
  return all.sort((a, b) => a.seq - b.seq);
}

function historyAt(store: RunStore, runId: string, step: number, depth = 0): WriterHistory {
  const row = store.getRun(runId);
  const parent = row?.parent_run_id ?? null;
  const forkStep = row?.parent_step ?? null;
  const inherit = parent !== null && forkStep !== null && depth < 64 && store.getRun(parent) !== undefined;
  if (inherit && step <= forkStep) return historyAt(store, parent, step, depth + 1);
  const { base, after } = store.stateEvents(runId, step);
  const maxSeq = Math.max(base?.seq ?? 0, ...after.map((e) => e.seq));
  const start = inherit ? historyAt(store, parent, forkStep, depth + 1) : new Map<string, SlotWriter[]>();
  // Only what the parent's timeline held at the fork point carries over.
  if (inherit)
    for (const [k, list] of start)
      start.set(
        k,
        list.filter((w) => w.step <= forkStep),
      );
  return foldWriters(eventsUpTo(store, runId, maxSeq), runId, start);
}

export function writersAt(store: RunStore, runId: string, step: number): SlotWriter[] {
  return writersUpTo(historyAt(store, runId, step), step);
}

// How an episode's commit travels to its writer (ipcRunLog.ts → episodeWriter.ts, or embeddedPool.ts):
// the same CommitBatch, without what every envelope repeats. A demo step is ~57 events, and each
// envelope spells out `runId`, its keys and an ISO `ts` that changes once a millisecond: ~30 % of the
// bytes the child stringifies and the parent parses on the IPC channel. Here a part is its first seq
// (seqs within a commit are consecutive: RunWriter stamps them so) and [type, ts, data] rows, `ts`
// null when it is the previous row's; the parent rebuilds the envelopes before writing them.
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import type { CommitBatch } from '../db/runLog.ts';
import type { StepPart } from '../db/runStore.ts';

type Row = [type: EventEnvelope['type'], ts: string | null, data: unknown];

interface WirePart {
  /** Seq of the first row (the others follow one by one). */
  s: number;
  r: Row[];
  c?: StepPart['checkpoint'];
}

export interface WireCommit extends Omit<CommitBatch, 'events' | 'earlier' | 'checkpoint'> {
  parts: WirePart[];
}

export function packCommit(batch: CommitBatch): WireCommit {
  const { events: _e, earlier, checkpoint: _c, ...rest } = batch;
  let ts: string | null = null;
  const part = (p: StepPart): WirePart => {
    const rows: Row[] = [];
    let expected = p.events[0]?.seq ?? 0;
    for (const e of p.events) {
      if (e.seq !== expected++)
        throw new Error(`commit of ${e.runId}: seq ${e.seq} does not follow the previous one`);
      rows.push([e.type, e.ts === ts ? null : e.ts, e.data]);
      ts = e.ts;
    }
    return { s: p.events[0]?.seq ?? 0, r: rows, ...(p.checkpoint ? { c: p.checkpoint } : {}) };
  };
  return { ...rest, parts: [...(earlier ?? []), batch].map(part) };
}

export function unpackCommit(runId: string, wire: WireCommit): CommitBatch {
  const { parts, ...rest } = wire;
  let ts = '';
  const steps: StepPart[] = parts.map((p) => ({
    events: p.r.map(([type, t, data], i) => {
      if (t !== null) ts = t;
      return { type, runId, seq: p.s + i, ts, data };
    }),
    ...(p.c ? { checkpoint: p.c } : {}),
  }));
  const last = steps.pop() ?? { events: [] };
  return { ...rest, ...(steps.length > 0 ? { earlier: steps } : {}), ...last };
}

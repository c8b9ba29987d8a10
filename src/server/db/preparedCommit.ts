// A commit prepared by whoever makes it, so that the one who writes it has less to do: an episode
// child's engine thread prepares, its writer thread (batch/episodeWriter.ts) writes, each on a core.
// Everything RunStore.commit would compute without the database is done here: the commit's event
// page (eventPages.pageOut) and, for a flat-out group (plain roots), the plain-root text of every
// blob-encoded payload and checkpoint. What crosses to the writer is then mostly strings and bytes,
// cheap to clone, instead of the snapshots' object trees.
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { plainRoot } from './blobStore.ts';
import { pageOut } from './eventPages.ts';
import { BLOB_ENCODED, type CommitBatch, type PreparedRoot, type StepPart } from './runStore.ts';

export function prepareCommit(batch: CommitBatch): CommitBatch {
  const paged = pageOut(batch);
  if (!paged.plain) return paged;
  let ready = true;
  const prepared = (v: unknown, step?: unknown): PreparedRoot => {
    const root = ready ? plainRoot(v) : undefined;
    if (root === undefined) ready = false; // encoded at once by the writer: leave this commit as it is
    return typeof step === 'number' ? { root: root ?? '', step } : { root: root ?? '' };
  };
  const part = (p: StepPart): StepPart => ({
    ...p,
    // The step stays beside the text: RunStore files a payload under its step.
    events: p.events.map((e): EventEnvelope =>
      BLOB_ENCODED.has(e.type)
        ? { ...e, data: prepared(e.data, (e.data as { step?: unknown } | null)?.step) }
        : e,
    ),
    ...(p.checkpoint ? { checkpoint: { ...p.checkpoint, state: prepared(p.checkpoint.state) } } : {}),
  });
  const earlier = paged.earlier?.map(part);
  const out: CommitBatch = { ...paged, ...part(paged), ...(earlier ? { earlier } : {}), rootsReady: true };
  return ready ? out : paged;
}

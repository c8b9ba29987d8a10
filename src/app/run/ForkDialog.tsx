// The timeline's Fork, asked first: the fork starts from the picked step with the run's tab's graph
// as edited now, and answers its LLM and service calls from the run's recording until the first
// call that differs (docs/replay.md "Re-run without paying twice"). Before it starts, the dialog
// shows the server's preview — the recording replayed offline against that graph — so the user reads
// "12 calls reused, from step 7 live: node 'planner': its config differs: …" before paying for any.
import { useEffect, useMemo, useState } from 'react';
import type { ForkPreview } from '../../domain/protocol/replay.schema.ts';
import { Button } from '../ui/Button.tsx';
import { Modal } from '../ui/Modal.tsx';
import { fork, forkGraph } from './run.actions.ts';
import { runApi } from './run.api.ts';

type Preview =
  { state: 'loading' } | { state: 'ready'; preview: ForkPreview } | { state: 'failed'; error: string };

export function ForkDialog({ runId, step, onClose }: { runId: string; step: number; onClose: () => void }) {
  // The graph is read once, when the dialog opens: the preview and the fork use the same one.
  const graph = useMemo(() => forkGraph(), []);
  const [preview, setPreview] = useState<Preview>({ state: 'loading' });
  const [starting, setStarting] = useState(false);

  useEffect(() => {
    let live = true;
    runApi
      .forkPreview(runId, step, graph)
      .then((p) => live && setPreview({ state: 'ready', preview: p }))
      .catch((e: unknown) => live && setPreview({ state: 'failed', error: (e as Error).message }));
    return () => {
      live = false;
    };
  }, [runId, step, graph]);

  const start = async () => {
    setStarting(true);
    await fork(step, graph);
    onClose();
  };

  const p = preview.state === 'ready' ? preview.preview : null;
  return (
    <Modal title={`Fork from step ${step}`} onClose={onClose} testId="fork-dialog">
      {/* Rendered inside the timeline's one-line toolbar: wrap text again. */}
      <div className="whitespace-normal">
        <p className="mb-2 text-xs text-zinc-400">
          A new run of this tab&apos;s graph, from step {step}&apos;s state. Calls that are the same as this
          run&apos;s recorded ones are answered from the recording; from the first one that differs, every
          call is made live.
        </p>
        <div
          data-testid="fork-preview"
          data-state={preview.state}
          data-reused={p?.reused}
          data-live-from={p?.live_from_step ?? ''}
          // A callout (tinted, an accent on the left), not a bordered box that reads as a text field.
          className={`mb-3 rounded-r border-l-2 px-2 py-1.5 text-xs ${
            preview.state === 'failed'
              ? 'border-red-600 bg-red-950/40 text-red-300'
              : 'border-sky-600 bg-zinc-800/70 text-zinc-200'
          }`}
        >
          {preview.state === 'loading' && 'Replaying the recording to see what the fork can reuse…'}
          {preview.state === 'failed' && `No preview: ${preview.error}`}
          {p && p.message}
          {p && p.notes.length > 0 && <div className="mt-1 text-zinc-500">{p.notes.join(' ')}</div>}
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="ghost" data-testid="fork-cancel" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" data-testid="fork-start" disabled={starting} onClick={() => void start()}>
            Start fork
          </Button>
        </div>
      </div>
    </Modal>
  );
}

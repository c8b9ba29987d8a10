// Run notices under the top bar (runNotices.ts): "run X was stopped: a new run Y of graph G started
// from elsewhere", "run Y of graph G started from elsewhere", "steps … kept as branch B", each with
// Follow/Open and Dismiss; and the confirm dialog Play asks before replacing someone else's run.
// Also registers the server notices they come from on the live connection.
import { useEffect } from 'react';
import { liveClient } from '../live/connection.ts';
import { Button } from '../ui/Button.tsx';
import { Modal } from '../ui/Modal.tsx';
import { followRun, openRun } from './run.actions.ts';
import { checkAfterReconnect, dismissNotice, onRunBranched, onRunStarted, useNotices } from './runNotices.ts';

let installed = false;
function installRunNotices(): void {
  if (installed) return;
  installed = true;
  const live = liveClient();
  live.onNotice('run_started', onRunStarted);
  live.onNotice('run_branched', onRunBranched);
  live.onNotice('connect', () => void checkAfterReconnect());
}

function ConfirmDialog() {
  const confirm = useNotices((s) => s.confirm);
  if (!confirm) return null;
  return (
    <Modal title="Replace the live run?" onClose={() => confirm.resolve(false)} testId="run-confirm">
      <p className="mb-3 text-xs text-zinc-300" data-testid="run-confirm-text">
        {confirm.text}
      </p>
      <div className="flex justify-end gap-2">
        <Button data-testid="run-confirm-cancel" onClick={() => confirm.resolve(false)}>
          Cancel
        </Button>
        <Button variant="danger" data-testid="run-confirm-ok" onClick={() => confirm.resolve(true)}>
          Stop it and start this one
        </Button>
      </div>
    </Modal>
  );
}

export function RunNotices() {
  useEffect(installRunNotices, []);
  const notices = useNotices((s) => s.notices);
  return (
    <>
      {notices.length > 0 && (
        <div className="fixed top-10 right-2 z-40 flex w-[420px] flex-col gap-1" data-testid="run-notices">
          {notices.map((n) => (
            <div
              key={n.id}
              data-testid={`run-notice-${n.kind}`}
              data-run={n.runId}
              className="flex items-center gap-2 rounded border border-amber-700/60 bg-zinc-900/95 px-2 py-1 text-xs text-amber-100 shadow-lg"
            >
              <span className="min-w-0 flex-1" data-testid="run-notice-text">
                {n.text}
              </span>
              <Button
                variant="primary"
                data-testid="run-notice-follow"
                onClick={() => {
                  dismissNotice(n.id);
                  void (n.action === 'follow' ? followRun(n.runId) : openRun(n.runId));
                }}
              >
                {n.action === 'follow' ? 'Follow' : 'Open'}
              </Button>
              <Button variant="ghost" data-testid="run-notice-dismiss" onClick={() => dismissNotice(n.id)}>
                Dismiss
              </Button>
            </div>
          ))}
        </div>
      )}
      <ConfirmDialog />
    </>
  );
}

// Run notices above the canvas (runNotices.ts): "run X was stopped: a new run Y of graph G started
// from elsewhere", "run Y of graph G started from elsewhere", "steps … kept as branch B", each with
// Follow/Open and Dismiss; and the confirm dialog Play asks before replacing someone else's run.
// Also registers the server notices they come from on the live connection.
import { useEffect } from 'react';
import { Info } from 'lucide-react';
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

/**
 * The notices as a bar at the top of the canvas column: it takes its own room (the canvas below
 * gives way) instead of floating over the inspector, a node or the tabs.
 */
export function RunNoticeBar() {
  const notices = useNotices((s) => s.notices);
  if (notices.length === 0) return null;
  return (
    <div
      className="flex shrink-0 flex-col gap-px border-b border-amber-700/40 bg-zinc-900"
      data-testid="run-notices"
      role="status"
    >
      {notices.map((n) => (
        <div
          key={n.id}
          data-testid={`run-notice-${n.kind}`}
          data-run={n.runId}
          className="flex min-w-0 items-center gap-2 bg-amber-950/30 px-2 py-0.5 text-xs text-amber-100"
        >
          <Info size={12} className="shrink-0 text-amber-400" />
          <span className="min-w-0 flex-1 break-words" data-testid="run-notice-text">
            {n.text}
          </span>
          <Button
            variant="primary"
            className="shrink-0"
            data-testid="run-notice-follow"
            onClick={() => {
              dismissNotice(n.id);
              void (n.action === 'follow' ? followRun(n.runId) : openRun(n.runId));
            }}
          >
            {n.action === 'follow' ? 'Follow' : 'Open'}
          </Button>
          <Button
            variant="ghost"
            className="shrink-0"
            data-testid="run-notice-dismiss"
            onClick={() => dismissNotice(n.id)}
          >
            Dismiss
          </Button>
        </div>
      ))}
    </div>
  );
}

/** Listens for the notices (the bar above shows them) and asks Play's confirm. */
export function RunNotices() {
  useEffect(installRunNotices, []);
  return <ConfirmDialog />;
}

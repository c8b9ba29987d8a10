// The live value line of one container slot, used by the container box on the canvas and by the
// State panel: the value at the live step (or at the inspected step while time-travelling), and a
// brief "cleared by <signal>" badge when a lifetime signal just cleared the slot. Double-clicking
// the value, or its ⤢ button (on hover), opens the full value in the value viewer.
import { useEffect, useState } from 'react';
import { Maximize2 } from 'lucide-react';
import { showSlot } from '../viewer/openViewer.tsx';
import { useEditor } from '../store/editor.store.ts';
import { clearKey, useRun, viewContainers } from './run.store.ts';
import { slotLine } from './slotLine.ts';
import { ndInfoOf } from '../ui/ndarray.ts';
import { NdArrayView } from '../ui/NdArrayView.tsx';

/** How long the "cleared by" badge stays after a live clear. */
export const CLEAR_FLASH_MS = 1500;

export function LiveSlotValue({
  containerId,
  slot,
  placeholder = '',
}: {
  containerId: string;
  slot: string;
  placeholder?: string;
}) {
  const runTab = useRun((s) => s.tabId);
  const activeTabId = useEditor((s) => s.activeTabId);
  const shown = runTab === null || runTab === activeTabId;
  const line = useRun((s) => (shown ? slotLine(viewContainers(s)[containerId]?.states[slot]) : null));
  // An array value (full values: an inspected step, or a host that streams them) is drawn, not printed.
  const array = useRun((s) => {
    const v = shown ? viewContainers(s)[containerId]?.states[slot]?.value : undefined;
    return ndInfoOf(v) ? v : null;
  });
  const inspecting = useRun((s) => s.inspectedStep !== null);
  const liveClear = useRun((s) =>
    shown && s.inspectedStep === null ? s.clears[clearKey(containerId, slot)] : undefined,
  );
  const stepClear = useRun((s) =>
    shown && s.inspectedStep !== null
      ? (s.snapshots[s.inspectedStep]?.clears.find((c) => c.container === containerId && c.slot === slot) ??
        null)
      : null,
  );
  const [flashSeq, setFlashSeq] = useState<number | null>(null);
  const clearSeq = liveClear?.seq ?? null;
  useEffect(() => {
    if (clearSeq === null) return;
    setFlashSeq(clearSeq);
    const t = setTimeout(() => setFlashSeq(null), CLEAR_FLASH_MS);
    return () => clearTimeout(t);
  }, [clearSeq]);
  const cleared = stepClear ?? (flashSeq !== null && flashSeq === clearSeq ? liveClear : undefined);
  const viewable = line !== null || array !== null;
  return (
    <span
      className="group/value flex min-w-0 items-center gap-1"
      data-testid={`live-value-${containerId}-${slot}`}
      data-inspecting={inspecting ? 'true' : 'false'}
      onDoubleClick={
        viewable
          ? (e) => {
              e.stopPropagation();
              showSlot(containerId, slot);
            }
          : undefined
      }
    >
      {array !== null ? (
        <NdArrayView value={array} size="thumb" />
      ) : (
        <span
          className={`min-w-[2ch] truncate ${line === null ? 'text-zinc-600' : inspecting ? 'text-sky-300' : 'text-emerald-300'}`}
          title={line ?? undefined}
        >
          {line ?? placeholder}
        </span>
      )}
      {viewable && (
        <button
          type="button"
          data-testid={`open-value-${containerId}-${slot}`}
          title="Open the full value (or double-click the value)"
          aria-label={`open the value of ${containerId}.${slot}`}
          className="nodrag invisible shrink-0 text-zinc-500 group-hover/value:visible hover:text-zinc-200 focus-visible:visible"
          onMouseDown={(e) => e.stopPropagation()}
          onClick={(e) => {
            e.stopPropagation();
            showSlot(containerId, slot);
          }}
        >
          <Maximize2 size={10} />
        </button>
      )}
      {cleared && (
        <span
          data-testid="cleared-badge"
          data-step={cleared.step}
          className="min-w-0 shrink-[2] truncate rounded bg-pink-500/15 px-1 text-[9px] text-pink-300"
          // The live badge lingers a moment after the clear; the tooltip says which step it was.
          title={`this slot was cleared by the ${cleared.signal} signal at step ${cleared.step}`}
        >
          cleared by {cleared.signal}
        </span>
      )}
    </span>
  );
}

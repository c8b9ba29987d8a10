// The dot at the start of a slot row (State panel, container box): click to break whenever the slot
// is written (click again to remove); red when a write breakpoint is set, a ring when any breakpoint
// watches the slot. More kinds (on clear, value conditions) are in the Breakpoints panel.
import { toggleWriteBreakpoint, useBreakpoints, writeBreakpointOf } from './breakpoints.store.ts';
import { useEditor } from '../store/editor.store.ts';

export function SlotBreakpointDot({ container, slot }: { container: string; slot: string }) {
  const tabId = useEditor((s) => s.activeTabId);
  const list = useBreakpoints(tabId);
  const onWrite = writeBreakpointOf(list, container, slot);
  const watched = list.some((b) => b.kind !== 'node' && b.container === container && b.slot === slot);
  return (
    <button
      type="button"
      data-testid={`slot-bp-${container}-${slot}`}
      data-set={onWrite ? 'true' : 'false'}
      title={
        onWrite ? 'breaks on every write: click to remove' : 'click to break on every write of this slot'
      }
      onClick={(e) => {
        e.stopPropagation();
        if (tabId) toggleWriteBreakpoint(tabId, container, slot);
      }}
      className={`nodrag h-2 w-2 shrink-0 rounded-full ${
        onWrite
          ? 'bg-red-500'
          : watched
            ? 'bg-transparent ring-1 ring-red-400'
            : 'bg-violet-400 hover:bg-red-400/70'
      }`}
    />
  );
}

// A horizontal sash on the top edge of a panel: drag it to resize the panel, double-click it to go
// back to the default height, or focus it and use ↑/↓ (Shift: bigger steps), as in an IDE. While
// dragging, the height is written to the panel's style directly (no React render per pointer move);
// the caller gets the final height once, on release.
import { useRef, type RefObject } from 'react';

const KEY_STEP_PX = 16;

export function ResizeSash({
  target,
  height,
  clamp,
  onResize,
  defaultHeight,
  label,
  testId,
}: {
  /** The element whose height the sash sets (it grows upward: the sash is its top edge). */
  target: RefObject<HTMLElement | null>;
  height: number;
  clamp: (px: number) => number;
  /** The height the user settled on (release, double-click, key). */
  onResize: (px: number) => void;
  defaultHeight: number;
  label: string;
  testId?: string;
}) {
  const drag = useRef<{ y: number; h: number; last: number } | null>(null);
  return (
    <div
      role="separator"
      aria-orientation="horizontal"
      aria-label={label}
      aria-valuenow={height}
      tabIndex={0}
      data-testid={testId}
      title={`${label}: drag, or double-click for the default height`}
      className="absolute inset-x-0 -top-[3px] z-20 h-[6px] cursor-row-resize touch-none outline-none hover:bg-sky-500/40 focus-visible:bg-sky-500/60 active:bg-sky-500/60"
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        e.preventDefault();
        e.currentTarget.setPointerCapture(e.pointerId);
        drag.current = { y: e.clientY, h: height, last: height };
      }}
      onPointerMove={(e) => {
        const d = drag.current;
        if (!d || !target.current) return;
        d.last = clamp(d.h + (d.y - e.clientY));
        target.current.style.height = `${d.last}px`;
      }}
      onPointerUp={(e) => {
        const d = drag.current;
        drag.current = null;
        if (e.currentTarget.hasPointerCapture(e.pointerId))
          e.currentTarget.releasePointerCapture(e.pointerId);
        if (d && d.last !== d.h) onResize(d.last);
      }}
      onPointerCancel={() => {
        const d = drag.current;
        drag.current = null;
        if (d && d.last !== d.h) onResize(d.last);
      }}
      onDoubleClick={() => onResize(clamp(defaultHeight))}
      onKeyDown={(e) => {
        if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
        e.preventDefault();
        const step = (e.shiftKey ? 4 : 1) * KEY_STEP_PX;
        onResize(clamp(height + (e.key === 'ArrowUp' ? step : -step)));
      }}
    />
  );
}

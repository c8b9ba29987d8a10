// The large dialog shell of the debugger's views (value viewer, compare view): backdrop and Esc
// close it, a header row with the title, extra header content and a close button.
import { useEffect, type ReactNode } from 'react';
import { X } from 'lucide-react';

export function DebugDialog({
  label,
  testId,
  status,
  closeTestId,
  onClose,
  header,
  children,
  layer = 'z-50',
  width = 'w-[900px]',
  escapeUnless,
}: {
  label: string;
  testId: string;
  status: string;
  closeTestId: string;
  onClose: () => void;
  header: ReactNode;
  children: ReactNode;
  layer?: string;
  width?: string;
  /** Esc is left to a dialog above this one while this selector matches. */
  escapeUnless?: string;
}) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      if (escapeUnless && document.querySelector(escapeUnless)) return;
      onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose, escapeUnless]);
  return (
    <div
      className={`fixed inset-0 ${layer} flex items-center justify-center bg-black/50`}
      onMouseDown={onClose}
    >
      <div
        role="dialog"
        aria-label={label}
        data-testid={testId}
        data-status={status}
        className={`flex h-[80vh] ${width} max-w-[95vw] flex-col gap-1.5 rounded-lg border border-zinc-700 bg-zinc-900 p-3 text-xs text-zinc-300 shadow-xl`}
        onMouseDown={(e) => e.stopPropagation()}
      >
        <div className="flex min-w-0 items-center gap-2">
          {header}
          <button
            type="button"
            data-testid={closeTestId}
            className="ml-auto text-zinc-500 hover:text-zinc-200"
            onClick={onClose}
            aria-label="close"
          >
            <X size={14} />
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

// A centred modal with a title; Esc and the backdrop close it.
import { useEffect, type ReactNode } from 'react';

export function Modal({
  title,
  onClose,
  children,
  testId,
  width = 'w-[480px]',
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  /** A Tailwind width class; the dialog never gets wider than 90% of the window. */
  width?: string;
}) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div
      className="fixed inset-0 z-50 flex items-start justify-center bg-black/50 pt-24"
      onMouseDown={onClose}
    >
      <div
        role="dialog"
        aria-label={title}
        data-testid={testId}
        className={`${width} max-w-[90vw] rounded-lg border border-zinc-700 bg-zinc-900 p-4 text-sm shadow-xl`}
        onMouseDown={(e) => e.stopPropagation()}
      >
        <div className="mb-3 font-semibold text-zinc-100">{title}</div>
        {children}
      </div>
    </div>
  );
}

// The one toast: refused connections appear at the cursor (data-testid="connection-refusal"),
// other messages at the bottom centre. It fades after a few seconds.
import { useEffect } from 'react';
import { useEditor } from '../store/editor.store.ts';

export function Toast() {
  const toast = useEditor((s) => s.toast);
  const dismiss = useEditor((s) => s.dismissToast);
  useEffect(() => {
    if (!toast) return;
    const t = setTimeout(dismiss, toast.kind === 'info' ? 2500 : 6000);
    return () => clearTimeout(t);
  }, [toast, dismiss]);
  if (!toast) return null;
  const tone =
    toast.kind === 'info'
      ? 'border-zinc-600 bg-zinc-800 text-zinc-100'
      : 'border-red-700 bg-red-950 text-red-100';
  const style = toast.at ? { left: toast.at.x + 14, top: toast.at.y + 14 } : undefined;
  return (
    <div
      role="status"
      data-testid={toast.kind === 'refusal' ? 'connection-refusal' : 'toast'}
      style={style}
      className={`pointer-events-none fixed z-[60] max-w-sm rounded border px-2 py-1 text-xs shadow-lg ${tone} ${toast.at ? '' : 'bottom-6 left-1/2 -translate-x-1/2'}`}
    >
      {toast.kind === 'refusal' && <span className="mr-1 font-semibold">Not connected:</span>}
      {toast.message}
    </div>
  );
}

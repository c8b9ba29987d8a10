// Label + control row for inspector forms.
import type { ReactNode } from 'react';

export function Field({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  return (
    <label className="mb-1 flex items-start gap-2 text-xs" title={hint}>
      <span className="w-20 shrink-0 pt-0.5 text-zinc-500">{label}</span>
      <div className="flex min-w-0 flex-1 items-center gap-1">{children}</div>
    </label>
  );
}

export const selectCls =
  'rounded border border-zinc-700 bg-zinc-950 px-1 py-0.5 text-xs outline-none focus:border-sky-600';

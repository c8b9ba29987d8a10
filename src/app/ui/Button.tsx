// Small dense button used across toolbars and panels.
import type { ComponentProps } from 'react';

export function Button({
  className = '',
  variant = 'default',
  ...rest
}: ComponentProps<'button'> & { variant?: 'default' | 'primary' | 'danger' | 'ghost' }) {
  const tone =
    variant === 'primary'
      ? 'bg-sky-700 hover:bg-sky-600 text-white'
      : variant === 'danger'
        ? 'bg-red-800 hover:bg-red-700 text-white'
        : variant === 'ghost'
          ? 'hover:bg-zinc-800 text-zinc-300'
          : 'bg-zinc-800 hover:bg-zinc-700 text-zinc-200';
  return (
    <button
      type="button"
      className={`inline-flex items-center gap-1 rounded px-2 py-0.5 text-xs disabled:opacity-40 ${tone} ${className}`}
      {...rest}
    />
  );
}

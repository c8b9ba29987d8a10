// A text input that edits a draft and commits on Enter or blur (one undo step per edit, not per
// keystroke). If the commit is refused, the reason shows under the field and the draft stays.
import { useEffect, useState, type InputHTMLAttributes } from 'react';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & {
  value: string;
  /** Returns a refusal reason, or null when accepted. */
  onCommit: (next: string) => string | null;
  testId?: string;
  multiline?: boolean;
  /** Reset the draft to `value` after an accepted commit (for "add …" inputs). */
  clearOnCommit?: boolean;
};

export function CommitInput({
  value,
  onCommit,
  testId,
  className = '',
  multiline,
  clearOnCommit,
  ...rest
}: Props) {
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setDraft(value);
    setError(null);
  }, [value]);
  const commit = () => {
    if (draft === value && !clearOnCommit) {
      setError(null);
      return;
    }
    const err = onCommit(draft);
    setError(err);
    if (!err && clearOnCommit) setDraft(value);
  };
  const cls = `w-full rounded border bg-zinc-950 px-1.5 py-0.5 text-xs outline-none focus:border-sky-600 ${error ? 'border-red-600' : 'border-zinc-700'} ${className}`;
  return (
    <div className="min-w-0 flex-1">
      {multiline ? (
        <textarea
          data-testid={testId}
          value={draft}
          rows={3}
          className={`${cls} font-mono`}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) commit();
            if (e.key === 'Escape') setDraft(value);
          }}
        />
      ) : (
        <input
          data-testid={testId}
          value={draft}
          className={cls}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit();
            if (e.key === 'Escape') setDraft(value);
          }}
          {...rest}
        />
      )}
      {error && (
        <div data-testid={testId ? `${testId}-error` : undefined} className="mt-0.5 text-[10px] text-red-400">
          {error}
        </div>
      )}
    </div>
  );
}

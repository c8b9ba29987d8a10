// A slot's value type: a combobox over the value-type registry (each type with what it holds) that
// refuses an unknown or removed type as you type, with the reason under the field. Nothing is
// committed while the draft is invalid; Enter, blur or picking a suggestion commits a valid one.
import { useEffect, useId, useState } from 'react';
import {
  normalizeValueType,
  valueTypeRefusal,
  valueTypeSuggestions,
} from '../../../domain/state/valueTypes.ts';

export function ValueTypeInput({
  value,
  testId,
  onCommit,
}: {
  value: string;
  testId: string;
  /** Returns a refusal reason, or null when accepted. */
  onCommit: (valueType: string) => string | null;
}) {
  const [draft, setDraft] = useState(value);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [refused, setRefused] = useState<string | null>(null);
  const listId = useId();
  useEffect(() => {
    setDraft(value);
    setRefused(null);
  }, [value]);

  const typed = normalizeValueType(draft);
  const edited = typed !== value;
  const options = valueTypeSuggestions(draft);
  const refusal = edited ? valueTypeRefusal(draft) : null;
  // While the draft is still the start of a known type ("PO" → POSE) it is not refused yet.
  const stillTyping = typed !== '' && options.some((o) => o.type.startsWith(typed));
  const error = refused ?? (refusal && !stillTyping && typed !== '' ? refusal : null);

  const commit = (next: string) => {
    setOpen(false);
    setActive(-1);
    if (next === value) {
      setDraft(value);
      setRefused(null);
      return;
    }
    const why = valueTypeRefusal(next) ?? onCommit(next);
    setRefused(why);
  };
  const pick = (t: string) => {
    setDraft(t);
    commit(t);
  };

  return (
    <div className="relative min-w-0 flex-1">
      <input
        data-testid={testId}
        role="combobox"
        aria-label="value type"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-invalid={error !== null}
        value={draft}
        spellCheck={false}
        className={`w-full rounded border bg-zinc-950 px-1.5 py-0.5 font-mono text-xs outline-none focus:border-sky-600 ${error ? 'border-red-600' : 'border-zinc-700'}`}
        onFocus={() => setOpen(true)}
        onChange={(e) => {
          setDraft(e.target.value);
          setRefused(null);
          setOpen(true);
          setActive(-1);
        }}
        onBlur={() => commit(typed)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            const n = options.length;
            setOpen(true);
            setActive((i) => (e.key === 'ArrowDown' ? (i + 1) % n : (i - 1 + n) % n));
          } else if (e.key === 'Enter') {
            const chosen = open && active >= 0 ? options[active] : undefined;
            if (chosen) pick(chosen.type);
            else commit(typed);
          } else if (e.key === 'Escape') {
            setDraft(value);
            setRefused(null);
            setOpen(false);
          }
        }}
      />
      {open && (
        <ul
          id={listId}
          role="listbox"
          data-testid={`${testId}-options`}
          className="absolute z-20 mt-0.5 max-h-60 w-full overflow-auto rounded border border-zinc-700 bg-zinc-900 py-0.5 shadow-lg"
        >
          {options.map((o, i) => (
            <li
              key={o.type}
              role="option"
              aria-selected={i === active}
              data-testid={`${testId}-option-${o.type}`}
              className={`cursor-pointer px-1.5 py-0.5 text-[11px] ${i === active ? 'bg-sky-900/60' : 'hover:bg-zinc-800'}`}
              onMouseDown={(e) => {
                e.preventDefault(); // keep focus: the pick commits, not the blur
                pick(o.type);
              }}
            >
              <span className="font-mono text-zinc-200">{o.type}</span>{' '}
              <span className="text-zinc-500">{o.description}</span>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <div data-testid={`${testId}-error`} role="alert" className="mt-0.5 text-[10px] text-red-400">
          {error}
        </div>
      )}
    </div>
  );
}

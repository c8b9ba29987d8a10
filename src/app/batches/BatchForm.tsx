// The "Batch…" form: how many episodes, on how many workers, from which seed, with which
// `path=value` overrides of the active tab's graph; Start posts it (POST /api/batches). Errors
// stay beside the field they are about; an override's error names its line and path.
import type { FormEvent, KeyboardEvent } from 'react';
import { Layers } from 'lucide-react';
import { activeTab } from '../store/doc.slice.ts';
import { useEditor } from '../store/editor.store.ts';
import { Button } from '../ui/Button.tsx';
import { Modal } from '../ui/Modal.tsx';
import { mountOverlay } from '../viewer/overlayRoot.tsx';
import type { BatchField, FieldError } from './batchForm.ts';
import { closeBatchForm, openBatchForm, submitBatchForm } from './batchSync.ts';
import { setFormValues, useBatches } from './batches.store.ts';

const INPUT =
  'w-24 rounded border border-zinc-700 bg-zinc-950 px-1.5 py-0.5 text-xs text-zinc-100 tabular-nums outline-none focus:border-sky-600';
const BAD = '!border-red-600';

function Errors({ errors, field }: { errors: readonly FieldError[]; field: BatchField }) {
  const mine = errors.filter((e) => e.field === field);
  if (mine.length === 0) return null;
  return (
    <ul className="mt-0.5 space-y-0.5">
      {mine.map((e, i) => (
        <li
          key={i}
          className="text-[11px] break-words text-red-400"
          data-testid="batch-form-error"
          data-field={e.field}
          data-line={e.line}
          data-path={e.path}
        >
          {e.line !== undefined && !e.message.includes(`line ${e.line}`) ? `line ${e.line}: ` : ''}
          {e.message}
        </li>
      ))}
    </ul>
  );
}

function NumberField({
  name,
  label,
  hint,
  placeholder,
}: {
  name: 'episodes' | 'workers' | 'seed';
  label: string;
  hint: string;
  placeholder?: string;
}) {
  const value = useBatches((s) => s.form.values[name]);
  const errors = useBatches((s) => s.form.errors);
  const bad = errors.some((e) => e.field === name);
  return (
    <label className="flex flex-col gap-0.5 text-xs" title={hint}>
      <span className="text-zinc-400">{label}</span>
      <input
        className={`${INPUT} ${bad ? BAD : ''}`}
        inputMode="numeric"
        autoFocus={name === 'episodes'}
        data-testid={`batch-form-${name}`}
        value={value}
        placeholder={placeholder}
        onChange={(e) => setFormValues({ [name]: e.target.value })}
      />
      <Errors errors={errors} field={name} />
    </label>
  );
}

function BatchFormDialog() {
  const open = useBatches((s) => s.form.open);
  const form = useBatches((s) => s.form);
  const graphName = useEditor((s) => {
    const t = activeTab(s);
    return t ? t.graph.name || t.title : null;
  });
  const dirty = useEditor((s) => activeTab(s)?.dirty ?? false);
  if (!open) return null;
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    void submitBatchForm();
  };
  const onAreaKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit();
  };
  const badLines = new Set(form.errors.flatMap((er) => (er.line !== undefined ? [er.line] : [])));
  const lineCount = Math.max(4, form.values.overrides.split('\n').length);
  return (
    <Modal title="Run a batch" onClose={closeBatchForm} testId="batch-form">
      <form onSubmit={submit} className="flex flex-col gap-3">
        <p className="text-xs text-zinc-400">
          Runs <span className="text-zinc-100">{graphName ?? 'no graph'}</span> (the active tab
          {dirty ? ', unsaved changes included' : ''}) once per episode; each episode is a run of its own,
          with its own seed.
        </p>
        <div className="flex gap-4">
          <NumberField name="episodes" label="Episodes" hint="How many runs of the graph" />
          <NumberField
            name="workers"
            label="Workers"
            hint="Episodes run at the same time (blank: 1)"
            placeholder="1"
          />
          <NumberField
            name="seed"
            label="Seed"
            hint="Base seed: each episode's seed is derived from it and its number (blank: 0)"
            placeholder="0"
          />
        </div>
        <label className="flex flex-col gap-0.5 text-xs">
          <span className="text-zinc-400">
            Overrides <span className="text-zinc-600">· one path=value a line, # comments</span>
          </span>
          <div
            className={`flex rounded border bg-zinc-950 focus-within:border-sky-600 ${badLines.size > 0 || form.errors.some((er) => er.field === 'overrides') ? 'border-red-600' : 'border-zinc-700'}`}
          >
            <div
              aria-hidden
              className="shrink-0 border-r border-zinc-800 px-1 py-1 text-right font-mono text-[11px] leading-4 text-zinc-600 select-none"
            >
              {Array.from({ length: lineCount }, (_, i) => (
                <div key={i} className={badLines.has(i + 1) ? 'text-red-400' : ''}>
                  {i + 1}
                </div>
              ))}
            </div>
            <textarea
              rows={lineCount}
              spellCheck={false}
              data-testid="batch-form-overrides"
              className="min-w-0 flex-1 resize-none bg-transparent px-1.5 py-1 font-mono text-[11px] leading-4 text-zinc-100 outline-none"
              placeholder={'step_budget=15'}
              value={form.values.overrides}
              onKeyDown={onAreaKey}
              onChange={(e) => setFormValues({ overrides: e.target.value })}
            />
          </div>
          <Errors errors={form.errors} field="overrides" />
        </label>
        <Errors errors={form.errors} field="general" />
        <div className="flex justify-end gap-2">
          <Button onClick={closeBatchForm} data-testid="batch-form-cancel">
            Cancel
          </Button>
          <Button
            type="submit"
            variant="primary"
            data-testid="batch-form-start"
            disabled={form.busy || graphName === null}
          >
            <Layers size={12} /> {form.busy ? 'Starting…' : 'Start'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** Opens the form (rendered in a root of its own, made on first use). */
export function showBatchForm(): void {
  mountOverlay('batch-form', <BatchFormDialog />);
  openBatchForm();
}

/** The run toolbar's "Batch…": many runs of this tab's graph, followed in the Batches tab. */
export function BatchButton() {
  return (
    <Button
      variant="ghost"
      data-testid="batch-open"
      title="Run this graph many times (episodes, seeds, overrides) and compare their metrics"
      onClick={showBatchForm}
    >
      {/* A narrow window keeps the icon (the tooltip says what it does); the tabs keep their room. */}
      <Layers size={12} /> <span className="max-xl:hidden">Batch…</span>
    </Button>
  );
}

// The Compare view (a dialog opened from the Timeline's "Compare…"): two steps of a run, or the same
// step of a fork and its parent, as a diff of every container — added / removed / changed slots and
// keyed partitions, old → new, with the node (or signal) that set the newer value. Expanding a slot
// shows its structural diff (JSON paths). Rows are virtualized; ⤢ opens a side in the value viewer.
import { memo, useEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowLeftRight, ChevronDown, ChevronRight, GitCompare, Maximize2 } from 'lucide-react';
import { DebugDialog } from '../viewer/DebugDialog.tsx';
import type { ChangeStatus, KeyDiff, SlotWriter } from '../../domain/debug/stateDiff.ts';
import { Button } from '../ui/Button.tsx';
import { formatValue } from '../run/slotLine.ts';
import { mountOverlay } from '../viewer/overlayRoot.tsx';
import { showValue } from '../viewer/openViewer.tsx';
import {
  closeCompare,
  openCompare,
  setSides,
  toggleExpanded,
  useCompare,
  compareStore,
  type Side,
} from './compare.store.ts';
import { compareRows, type CompareRow } from './compareRows.ts';

const ROW_H = 20;

const BADGE: Record<ChangeStatus | 'moved', string> = {
  added: 'bg-emerald-500/15 text-emerald-300',
  removed: 'bg-red-500/15 text-red-300',
  changed: 'bg-amber-500/15 text-amber-300',
  moved: 'bg-sky-500/15 text-sky-300',
  same: 'bg-zinc-700/40 text-zinc-500',
};

function Badge({ status }: { status: ChangeStatus | 'moved' }) {
  return (
    <span
      data-testid="compare-badge"
      className={`shrink-0 rounded px-1 text-[9px] uppercase ${BADGE[status]}`}
    >
      {status}
    </span>
  );
}

function OldNew({ status, old, now }: { status: ChangeStatus | 'moved'; old: unknown; now: unknown }) {
  if (status === 'same')
    return (
      <span className="min-w-0 truncate font-mono text-zinc-400" data-testid="compare-old-new">
        {formatValue(now)}
      </span>
    );
  return (
    <span className="min-w-0 truncate font-mono" data-testid="compare-old-new">
      {status !== 'added' && <span className="text-red-300/90">{formatValue(old)}</span>}
      {status !== 'added' && status !== 'removed' && <span className="text-zinc-500"> → </span>}
      {status !== 'removed' && <span className="text-emerald-300">{formatValue(now)}</span>}
    </span>
  );
}

/** A keyed slot's partitions on one side, as the viewer opens them. */
function keyedSide(keys: readonly KeyDiff[], side: 'old' | 'new'): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => side in k).map((k) => [k.key, k[side]]));
}

function WriterText({ w, runId }: { w: SlotWriter | undefined; runId: string }) {
  if (!w) return null;
  return (
    <span
      className="ml-auto shrink-0 pl-2 text-[10px] text-zinc-500"
      data-testid="compare-writer"
      title={`${w.node_id ? `written by node ${w.node_id}` : `cleared by the ${w.signal} signal`} at step ${w.step} (event #${w.seq} of run ${w.run_id})`}
    >
      {w.node_id ? (
        <>
          by <span className="text-zinc-300">{w.node_id}</span>
        </>
      ) : (
        <>
          cleared by <span className="text-pink-300">{w.signal}</span>
        </>
      )}{' '}
      @ {w.step}
      {w.run_id !== runId ? ' (parent run)' : ''}
    </span>
  );
}

function ViewButtons({
  title,
  old,
  now,
  status,
}: {
  title: string;
  old: unknown;
  now: unknown;
  status: ChangeStatus;
}) {
  const { a, b } = compareStore.getState();
  const btn = (label: string, v: unknown, side: Side) => (
    <button
      type="button"
      data-testid={`compare-view-${label}`}
      className="flex shrink-0 items-center gap-0.5 text-[10px] text-zinc-500 hover:text-zinc-200"
      title={`Open the ${label} value in the viewer`}
      onClick={(e) => {
        e.stopPropagation();
        showValue(title, v, `${label} · run ${side.runId} step ${side.step}`);
      }}
    >
      <Maximize2 size={9} /> {label}
    </button>
  );
  return (
    <span className="flex shrink-0 gap-1 pl-1">
      {status !== 'added' && status !== 'same' && btn('old', old, a)}
      {status !== 'removed' && btn('new', now, b)}
    </span>
  );
}

const Row = memo(function Row({ row, open, runId }: { row: CompareRow; open: boolean; runId: string }) {
  const pad = (depth: number) => ({ paddingLeft: 8 + depth * 16 });
  const chevron = (can: boolean) =>
    can ? open ? <ChevronDown size={11} /> : <ChevronRight size={11} /> : <span className="w-[11px]" />;
  switch (row.type) {
    case 'container': {
      const c = row.diff.counts;
      return (
        <div
          className="flex h-full items-center gap-2 border-t border-zinc-800 bg-zinc-800/40 px-2 font-semibold"
          data-testid={`compare-container-${row.id}`}
          data-status={row.diff.status}
        >
          <span className="text-violet-300">{row.id}</span>
          <span className="font-normal text-zinc-500">{row.diff.label}</span>
          <Badge status={row.diff.status} />
          <span className="ml-auto text-[10px] font-normal text-zinc-500">
            {c.changed} changed · {c.added} added · {c.removed} removed · {c.same} same
          </span>
        </div>
      );
    }
    case 'section':
      return (
        <div className="flex h-full items-center border-t border-zinc-800 bg-zinc-800/40 px-2 font-semibold text-zinc-400">
          {row.text}
        </div>
      );
    case 'slot': {
      const d = row.diff;
      const can = d.lines.length + d.keys.length + d.meta.length > 0;
      return (
        <div
          className={`flex h-full items-center gap-1 pr-2 ${can ? 'cursor-pointer hover:bg-zinc-800/60' : ''}`}
          style={pad(0)}
          data-testid={`compare-slot-${row.container}-${d.slot}`}
          data-status={d.status}
          onClick={() => can && toggleExpanded(row.id)}
        >
          {chevron(can)}
          <Badge status={d.status} />
          <span className="shrink-0 text-violet-200">{d.slot}</span>
          {d.keys.length > 0 && (
            <span className="shrink-0 text-[10px] text-zinc-500">
              {d.keys.filter((k) => k.status !== 'same').length}/{d.keys.length} keys changed
            </span>
          )}
          {d.keys.length === 0 && <OldNew status={d.status} old={d.old} now={d.new} />}
          <WriterText w={d.writer} runId={runId} />
          <ViewButtons
            title={`${row.container}.${d.slot}`}
            old={d.keys.length > 0 ? keyedSide(d.keys, 'old') : d.old}
            now={d.keys.length > 0 ? keyedSide(d.keys, 'new') : d.new}
            status={d.status}
          />
        </div>
      );
    }
    case 'key': {
      const d = row.diff;
      const can = d.lines.length > 0;
      const title = row.slot ? `${row.container}.${row.slot}[${JSON.stringify(d.key)}]` : `node ${d.key}`;
      return (
        <div
          className={`flex h-full items-center gap-1 pr-2 ${can ? 'cursor-pointer hover:bg-zinc-800/60' : ''}`}
          style={pad(row.depth)}
          data-testid={`compare-key-${row.container}-${row.slot}-${d.key}`}
          data-status={d.status}
          onClick={() => can && toggleExpanded(row.id)}
        >
          {chevron(can)}
          <Badge status={d.status} />
          <span className="shrink-0 text-zinc-300">{row.slot ? `[${d.key}]` : d.key}</span>
          <OldNew status={d.status} old={d.old} now={d.new} />
          <WriterText w={d.writer} runId={runId} />
          <ViewButtons title={title} old={d.old} now={d.new} status={d.status} />
        </div>
      );
    }
    case 'meta':
      return (
        <div className="flex h-full items-center pr-2 text-amber-300" style={pad(row.depth + 1)}>
          {row.text}
        </div>
      );
    case 'line': {
      const l = row.line;
      return (
        <div
          className="flex h-full items-center gap-2 pr-2"
          style={pad(row.depth + 1)}
          data-testid="compare-line"
        >
          <code className="shrink-0 text-zinc-400">{l.path}</code>
          <Badge status={l.kind} />
          {l.kind === 'moved' ? (
            <span className="text-sky-300">
              from [{String(l.old)}] to [{String(l.new)}]
            </span>
          ) : (
            <OldNew status={l.kind} old={l.old} now={l.new} />
          )}
        </div>
      );
    }
  }
});

function SidePicker({
  label,
  side,
  onChange,
}: {
  label: 'A' | 'B';
  side: Side;
  onChange: (s: Side) => void;
}) {
  const runs = useCompare((s) => s.runs);
  const [step, setStep] = useState(String(side.step));
  useEffect(() => setStep(String(side.step)), [side.step]);
  const ids = runs.some((r) => r.id === side.runId)
    ? runs
    : [{ id: side.runId, steps: 0, graph_name: '' }, ...runs];
  const shown = ids.find((r) => r.id === side.runId);
  const commit = () => {
    const n = Number(step);
    if (Number.isInteger(n) && n >= 0 && n !== side.step) onChange({ ...side, step: n });
    else setStep(String(side.step));
  };
  const tag = label.toLowerCase();
  return (
    <span className="flex items-center gap-1">
      <span className="font-semibold text-zinc-400">{label}</span>
      {/* As wide as its longest choice: a run id cut short is one that cannot be told apart. */}
      <select
        data-testid={`compare-${tag}-run`}
        className="rounded border border-zinc-700 bg-zinc-950 px-1 text-[11px] text-zinc-200"
        title={shown?.graph_name ? `run ${side.runId} of ${shown.graph_name}` : `run ${side.runId}`}
        value={side.runId}
        onChange={(e) => onChange({ ...side, runId: e.target.value })}
      >
        {ids.map((r) => (
          <option key={r.id} value={r.id}>
            {r.id}
            {r.steps ? ` (${r.steps} steps)` : ''}
          </option>
        ))}
      </select>
      <span className="text-zinc-500">step</span>
      <input
        data-testid={`compare-${tag}-step`}
        className="w-14 rounded border border-zinc-700 bg-zinc-950 px-1 text-[11px] text-zinc-200"
        inputMode="numeric"
        value={step}
        onChange={(e) => setStep(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
      />
    </span>
  );
}

function CompareList() {
  const containers = useCompare((s) => s.containers);
  const nodes = useCompare((s) => s.nodes);
  const expanded = useCompare((s) => s.expanded);
  const changedOnly = useCompare((s) => s.changedOnly);
  const runId = useCompare((s) => s.b.runId);
  const rows = compareRows(containers, nodes, expanded, changedOnly);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_H,
    overscan: 12,
  });
  if (rows.length === 0) return <div className="p-2 text-zinc-500">No differences.</div>;
  return (
    <div
      ref={scroller}
      className="min-h-0 flex-1 overflow-auto rounded border border-zinc-800 bg-zinc-950"
      data-testid="compare-list"
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          return (
            <div
              key={row.id}
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                height: ROW_H,
                transform: `translateY(${item.start}px)`,
              }}
            >
              <Row row={row} open={expanded.has(row.id)} runId={runId} />
            </div>
          );
        })}
      </div>
    </div>
  );
}

export function CompareView() {
  const open = useCompare((s) => s.open);
  const a = useCompare((s) => s.a);
  const b = useCompare((s) => s.b);
  const status = useCompare((s) => s.status);
  const error = useCompare((s) => s.error);
  const changedOnly = useCompare((s) => s.changedOnly);
  const parentOfB = useCompare((s) => s.runs.find((r) => r.id === s.b.runId)?.parent_run_id ?? null);
  if (!open) return null;
  return (
    <DebugDialog
      label="Compare states"
      testId="compare-view"
      status={status}
      closeTestId="compare-close"
      onClose={closeCompare}
      width="w-[1000px]"
      escapeUnless='[data-testid="value-viewer"]'
      header={
        <>
          <GitCompare size={13} className="text-sky-400" />
          <span className="font-semibold text-zinc-100">Compare</span>
          <span className="text-[10px] text-zinc-500">A is the older side; writers are B&apos;s</span>
        </>
      }
    >
      <div className="flex flex-wrap items-center gap-2">
        <SidePicker label="A" side={a} onChange={(s) => setSides(s, b)} />
        <span className="text-zinc-500">→</span>
        <SidePicker label="B" side={b} onChange={(s) => setSides(a, s)} />
        <Button
          variant="ghost"
          data-testid="compare-swap"
          onClick={() => setSides(b, a)}
          title="Swap A and B"
        >
          <ArrowLeftRight size={11} /> Swap
        </Button>
        <Button
          data-testid="compare-vs-parent"
          disabled={parentOfB === null}
          onClick={() => parentOfB && setSides({ runId: parentOfB, step: b.step }, b)}
          title={parentOfB ? `A = the parent run ${parentOfB} at step ${b.step}` : 'B is not a fork'}
        >
          vs parent run
        </Button>
        <label className="ml-auto flex items-center gap-1 text-zinc-400">
          <input
            type="checkbox"
            data-testid="compare-changed-only"
            checked={changedOnly}
            onChange={(e) => compareStore.setState({ changedOnly: e.target.checked })}
          />
          changed only
        </label>
      </div>
      {status === 'loading' && <div className="text-zinc-500">Loading both states…</div>}
      {status === 'error' && (
        <div className="text-red-400" data-testid="compare-error">
          {error}
        </div>
      )}
      {status === 'ready' && <CompareList />}
    </DebugDialog>
  );
}

/** Opens the Compare view (mounted on first use) on two sides. */
export function showCompare(a: Side, b: Side): void {
  mountOverlay('compare-view', <CompareView />);
  openCompare(a, b);
}

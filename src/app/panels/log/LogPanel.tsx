// Log panel: the followed run's log (one row per node fire from exec_log — step, node, type,
// duration, error — plus run status changes and error events, those naming a node or a node service
// with their step, node link and sender; the run store keeps the last 500)
// and the editor's own messages (opens, saves, refusals, import errors). Run lines are newest
// first so a streaming run keeps its latest fire in view; clicking a node name focuses the node.
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { editorStore, useEditor } from '../../store/editor.store.ts';
import { useRun, type RunLogLine } from '../../run/run.store.ts';
import { useRowVirtualizer } from '../useRowVirtualizer.ts';

/** Estimated height of a log row (px; one 11 px line); rows are measured once rendered. */
const ROW_H = 17;

const TONE = { info: 'text-zinc-400', warn: 'text-amber-400', error: 'text-red-400' } as const;

type View = 'run' | 'editor';

interface RunRowProps {
  line: RunLogLine;
  index: number;
  measure: (el: HTMLElement | null) => void;
}

interface LineRowProps extends Omit<RunRowProps, 'line'> {
  className: string;
  /** What tests tell rows apart by: `data-kind`, `data-node`… (an undefined one is not rendered). */
  data?: Record<`data-${string}`, string | undefined>;
  children: ReactNode;
}

/** The row of one run log line: measured by the virtualizer, `run-log-line` to the tests. */
function LineRow({ index, measure, className, data, children }: LineRowProps) {
  return (
    <tr ref={measure} data-index={index} className={className} data-testid="run-log-line" {...data}>
      {children}
    </tr>
  );
}

const StepCell = ({ step }: { step: number | undefined }) => (
  <td className="px-1 text-right whitespace-nowrap text-zinc-500 tabular-nums">{step ?? ''}</td>
);

/** A node's name that focuses it on the canvas (or `focus`, the node that stands for it there). */
function NodeLink({
  nodeId,
  focus = nodeId,
  children,
}: {
  nodeId: string;
  focus?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="hover:text-sky-300 hover:underline"
      title={`focus ${nodeId}`}
      onClick={() => editorStore.getState().focus([focus])}
    >
      {children}
    </button>
  );
}

/** A node's report or an event a node service pushed: step, the node (a link) or service, message. */
function EventRow({ line, index, measure }: RunRowProps) {
  const ev = line.event!;
  return (
    <LineRow
      index={index}
      measure={measure}
      className={TONE[line.level]}
      data={{ 'data-kind': 'event', 'data-node': ev.node_id, 'data-service': ev.service }}
    >
      <StepCell step={ev.step} />
      <td className="max-w-[220px] truncate px-1 whitespace-nowrap">
        {ev.node_id ? <NodeLink nodeId={ev.node_id}>{ev.node_id}</NodeLink> : null}
      </td>
      <td className="px-1 whitespace-nowrap text-zinc-500" title={ev.code}>
        {ev.service ? `service ${ev.service}` : ev.code}
      </td>
      <td colSpan={2} className="px-1 break-words" title={`${ev.code}: ${ev.message}`}>
        {ev.message}
      </td>
    </LineRow>
  );
}

/**
 * A recorded call: step, node, how it was answered; a fork's call answered from its parent's
 * recording (docs/replay.md "Re-run without paying twice") wears a "reused" badge naming the source.
 */
function EffectRow({ line, index, measure }: RunRowProps) {
  const ef = line.effect!;
  return (
    <LineRow
      index={index}
      measure={measure}
      className={TONE[line.level]}
      data={{ 'data-kind': 'effect', 'data-mode': ef.mode, 'data-node': ef.node_id }}
    >
      <StepCell step={ef.step} />
      <td className="max-w-[220px] truncate px-1 whitespace-nowrap">{ef.node_id}</td>
      <td className="px-1 whitespace-nowrap text-zinc-500">call</td>
      <td colSpan={2} className="px-1">
        {ef.mode === 'reused' ? (
          <span
            data-testid="log-reused"
            className="mr-1 rounded bg-emerald-900/60 px-1 text-emerald-300"
            title={ef.from ? `answered from run ${ef.from.run_id}'s recorded call ${ef.from.key}` : undefined}
          >
            reused
          </span>
        ) : null}
        {ef.mode === 'reused' && ef.from ? `answer of run ${ef.from.run_id}` : `effect ${ef.mode}`}
      </td>
    </LineRow>
  );
}

function RunRow({ line, index, measure }: RunRowProps) {
  const x = line.exec;
  if (!x && line.event) return <EventRow line={line} index={index} measure={measure} />;
  if (!x && line.effect) return <EffectRow line={line} index={index} measure={measure} />;
  if (!x) {
    return (
      <LineRow index={index} measure={measure} className={TONE[line.level]}>
        <td colSpan={5} className="px-1">
          {line.text}
        </td>
      </LineRow>
    );
  }
  return (
    <LineRow
      index={index}
      measure={measure}
      className={x.error ? 'text-red-300' : 'text-zinc-300'}
      data={{ 'data-node': x.node_id }}
    >
      <StepCell step={x.step} />
      <td className="max-w-[220px] truncate px-1 whitespace-nowrap">
        {/* A dynamic fire-list child (`<spawner>::dyn<i>`) is not on the canvas: focus its spawner. */}
        <NodeLink nodeId={x.node_id} focus={x.parent_node_id ?? x.node_id}>
          {x.label}
        </NodeLink>
      </td>
      <td className="px-1 whitespace-nowrap text-zinc-500">{x.node_type}</td>
      <td className="px-1 text-right whitespace-nowrap text-zinc-400 tabular-nums">{x.duration_ms} ms</td>
      <td className="max-w-0 truncate px-1 text-red-400" title={x.error ?? undefined}>
        {x.error ?? ''}
      </td>
    </LineRow>
  );
}

function RunLog({ errorsOnly }: { errorsOnly: boolean }) {
  const log = useRun((s) => s.log);
  // Memoized: the virtualizer re-renders this on every scroll frame.
  const lines = useMemo(
    () => (errorsOnly ? log.filter((l) => l.level !== 'info') : log).slice(-500).reverse(),
    [log, errorsOnly],
  );
  const scroller = useRef<HTMLDivElement>(null);
  // Virtualized: a streaming run keeps 500 lines (see useRowVirtualizer.ts).
  const virtualizer = useRowVirtualizer(lines.length, scroller, ROW_H);
  if (lines.length === 0)
    return (
      <div className="p-2 text-xs text-zinc-500">
        {errorsOnly ? 'No run errors.' : 'No run yet: press Play (Space) to run this graph.'}
      </div>
    );
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  return (
    <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto">
      <table className="w-full font-mono text-[11px]" data-testid="run-log" data-count={lines.length}>
        <thead className="sticky top-0 bg-zinc-925 text-left text-[10px] text-zinc-500">
          <tr>
            <th className="px-1 text-right font-normal">step</th>
            <th className="px-1 font-normal">node</th>
            <th className="px-1 font-normal">type</th>
            <th className="px-1 text-right font-normal whitespace-nowrap">took</th>
            <th className="w-full px-1 font-normal">error</th>
          </tr>
        </thead>
        <tbody>
          {before > 0 && <tr aria-hidden style={{ height: before }} />}
          {/* seq is unique per server event; local lines (seq 0) fall back to their position. */}
          {items.map((item) => {
            const l = lines[item.index]!;
            return (
              <RunRow
                key={l.seq > 0 ? l.seq : `local-${item.index}`}
                line={l}
                index={item.index}
                measure={virtualizer.measureElement}
              />
            );
          })}
          {after > 0 && <tr aria-hidden style={{ height: after }} />}
        </tbody>
      </table>
    </div>
  );
}

function EditorLog({ errorsOnly }: { errorsOnly: boolean }) {
  const all = useEditor((s) => s.log);
  const log = errorsOnly ? all.filter((l) => l.level !== 'info') : all;
  if (log.length === 0) return <div className="p-2 text-xs text-zinc-500">Nothing logged yet.</div>;
  return (
    <div className="min-h-0 flex-1 overflow-y-auto p-1 font-mono text-[11px]" data-testid="log-panel">
      {log.map((l, i) => (
        <div key={i} className={TONE[l.level]}>
          <span className="text-zinc-600">{new Date(l.ts).toLocaleTimeString()}</span> {l.message}
        </div>
      ))}
    </div>
  );
}

export function LogPanel() {
  const runCount = useRun((s) => s.log.length);
  const editorCount = useEditor((s) => s.log.length);
  const [picked, setPicked] = useState<View | null>(null);
  const [errorsOnly, setErrorsOnly] = useState(false);
  // Until the user picks, show the run log once a run has logged something.
  const view: View = picked ?? (runCount > 0 ? 'run' : 'editor');
  const tab = (v: View, label: string, n: number) => (
    <button
      type="button"
      data-testid={`log-view-${v}`}
      onClick={() => setPicked(v)}
      className={`rounded px-1.5 ${view === v ? 'bg-zinc-800 text-zinc-100' : 'text-zinc-500 hover:text-zinc-300'}`}
    >
      {label} <span className="tabular-nums text-zinc-500">{n}</span>
    </button>
  );
  return (
    <div className="flex h-full flex-col">
      <div className="flex shrink-0 items-center gap-1 border-b border-zinc-800/60 px-1 py-0.5 text-[11px]">
        {tab('run', 'Run', runCount)}
        {tab('editor', 'Editor', editorCount)}
        <label className="ml-auto flex items-center gap-1 text-zinc-500">
          <input
            type="checkbox"
            checked={errorsOnly}
            onChange={(e) => setErrorsOnly(e.target.checked)}
            data-testid="log-errors-only"
          />
          errors only
        </label>
      </div>
      {view === 'run' ? <RunLog errorsOnly={errorsOnly} /> : <EditorLog errorsOnly={errorsOnly} />}
    </div>
  );
}

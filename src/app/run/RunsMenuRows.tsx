// Rows of the Runs menu (RunsMenu.tsx): one run (graph, kind, status, steps, started, duration,
// version, diff / Follow / Delete), and one batch (its episode runs under it, collapsed until opened: a batch of 200
// episodes is one row, not 200). Columns line up with the menu's header.
import type { ReactNode } from 'react';
import { ChevronDown, ChevronRight, Layers, Trash2 } from 'lucide-react';
import { VersionTag } from '../ui/VersionTag.tsx';
import type { BatchGroup } from './runGroups.ts';
import type { RunListItem } from './runHistory.api.ts';

export const LIVE = new Set(['running', 'paused', 'idle']);

/** `1:05` / `42s` / `1h 3m` between two ISO times (now for a live run). */
export function duration(startedAt: string, endedAt: string | null, now = Date.now()): string {
  const ms = Math.max(0, (endedAt ? Date.parse(endedAt) : now) - Date.parse(startedAt));
  const sec = Math.round(ms / 1000);
  if (sec < 60) return `${sec}s`;
  if (sec < 3600) return `${Math.floor(sec / 60)}m ${String(sec % 60).padStart(2, '0')}s`;
  return `${Math.floor(sec / 3600)}h ${Math.floor((sec % 3600) / 60)}m`;
}

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour12: false });

/** The status · steps · started · duration cells every row shares. */
function Cells(props: {
  status: string;
  steps: number;
  started: string;
  ended: string | null;
  stepsTitle?: string;
}) {
  const live = LIVE.has(props.status);
  return (
    <>
      <span className={`w-16 shrink-0 ${live ? 'text-emerald-400' : 'text-zinc-500'}`}>{props.status}</span>
      <span
        className="w-14 shrink-0 text-right text-zinc-400 tabular-nums"
        data-testid="runs-item-steps"
        title={props.stepsTitle}
      >
        {props.steps}
      </span>
      <span className="w-14 shrink-0 text-[10px] text-zinc-500 tabular-nums">{time(props.started)}</span>
      <span className="w-14 shrink-0 text-[10px] text-zinc-500 tabular-nums">
        {duration(props.started, live ? null : props.ended)}
      </span>
    </>
  );
}

export interface RunActions {
  pick(id: string): void;
  follow(id: string): void;
  remove(run: RunListItem): void;
  /** Diff the graph version a run ran with the open tab's graph. */
  diff(id: string): void;
}

export function RunRow(props: {
  r: RunListItem;
  actions: RunActions;
  label?: ReactNode;
  /** The run on screen (its row is marked). */
  shown: string | null;
}) {
  const { r, actions, label } = props;
  const live = LIVE.has(r.status);
  const current = r.id === props.shown;
  const kind = r.kind ?? (r.parent_run_id ? 'fork' : 'run');
  return (
    <div
      data-testid={`runs-item-${r.id}`}
      data-status={r.status}
      data-kind={kind}
      aria-current={current ? 'true' : undefined}
      className={`flex w-full cursor-pointer items-center gap-2 border-l-2 py-0.5 pr-2 text-left hover:bg-zinc-800 ${current ? 'border-sky-500 bg-zinc-800/60' : 'border-transparent'} ${label ? 'pl-7' : 'pl-2'}`}
      title={
        r.parent_run_id
          ? `${kind === 'branch' ? 'branch (steps a restore abandoned)' : 'fork'} of ${r.parent_run_id} at step ${r.parent_step ?? '?'} · ${r.id}`
          : r.id
      }
      onClick={() => actions.pick(r.id)}
    >
      <span className="flex min-w-0 flex-1 items-center gap-1">
        <span className="truncate text-zinc-200">{label ?? (r.graph_name || r.id)}</span>
        {(kind === 'fork' || kind === 'branch') && (
          <span
            className={`text-[10px] ${kind === 'branch' ? 'text-amber-300' : 'text-violet-300'}`}
            data-testid="runs-item-kind"
          >
            {kind} @{r.parent_step ?? '?'}
          </span>
        )}
        {kind === 'imported' && (
          <span className="text-[10px] text-zinc-400" data-testid="runs-item-kind">
            imported
          </span>
        )}
      </span>
      <Cells status={r.status} steps={r.steps} started={r.started_at} ended={r.ended_at} />
      <VersionTag version={r.graph_version} className="w-16" testId="runs-item-version" />
      <span className="flex w-24 shrink-0 justify-end gap-1">
        <button
          type="button"
          data-testid={`runs-diff-${r.id}`}
          className="text-[10px] text-zinc-500 hover:text-sky-300"
          title="Diff the graph this run ran (its version) with the open tab's graph"
          onClick={(e) => {
            e.stopPropagation();
            actions.diff(r.id);
          }}
        >
          diff
        </button>
        {live && (
          <button
            type="button"
            data-testid={`runs-follow-${r.id}`}
            className="rounded bg-emerald-900/60 px-1 text-[10px] text-emerald-200 hover:bg-emerald-800"
            title="Follow this live run in the tab editing its graph"
            onClick={(e) => {
              e.stopPropagation();
              actions.follow(r.id);
            }}
          >
            Follow
          </button>
        )}
        <button
          type="button"
          data-testid={`runs-delete-${r.id}`}
          disabled={live}
          className="text-zinc-500 hover:text-red-400 disabled:opacity-30"
          title={live ? 'Stop the run before deleting it' : 'Delete this run and its log'}
          onClick={(e) => {
            e.stopPropagation();
            actions.remove(r);
          }}
        >
          <Trash2 size={11} />
        </button>
      </span>
    </div>
  );
}

/** A batch: one row (click opens or closes it), then, opened, a row per listed episode. */
export function BatchRows(props: {
  group: BatchGroup;
  open: boolean;
  toggle(): void;
  actions: RunActions;
  shown: string | null;
}) {
  const g = props.group;
  const count =
    g.runs.length === g.episodes ? `${g.episodes} episodes` : `${g.runs.length} of ${g.episodes} episodes`;
  const Chevron = props.open ? ChevronDown : ChevronRight;
  return (
    <div data-testid={`runs-batch-${g.id}`} data-open={props.open}>
      <div
        className="flex w-full cursor-pointer items-center gap-2 px-2 py-0.5 text-left hover:bg-zinc-800"
        title={`batch ${g.id}: ${count}, ${g.status}. Click to ${props.open ? 'hide' : 'show'} its episode runs.`}
        onClick={props.toggle}
        data-testid={`runs-batch-toggle-${g.id}`}
        role="button"
        aria-expanded={props.open}
      >
        {/* Two lines: the graph, then which batch and how many episodes (ids are long). */}
        <span className="flex min-w-0 flex-1 flex-col">
          <span className="flex min-w-0 items-center gap-1">
            <Chevron size={11} className="shrink-0 text-zinc-500" />
            <Layers size={11} className="shrink-0 text-sky-300" />
            <span className="truncate text-zinc-200">{g.graph_name || g.id}</span>
          </span>
          <span className="truncate pl-[26px] text-[10px] text-sky-300" data-testid="runs-batch-label">
            {/* Batch ids start with "batch_": the id says what the row is. */}
            {count} · <span className="font-mono">{g.id}</span>
          </span>
        </span>
        <Cells
          status={g.status}
          steps={g.steps}
          started={g.started_at}
          ended={g.ended_at}
          stepsTitle="steps of the listed episodes together"
        />
        {/* Every episode runs its batch's version. */}
        <VersionTag version={g.runs[0]?.graph_version} className="w-16" testId="runs-batch-version" />
        <span className="w-24 shrink-0" />
      </div>
      {props.open &&
        g.runs.map((r) => (
          <RunRow
            key={r.id}
            r={r}
            actions={props.actions}
            label={`episode ${r.batch?.episode ?? '?'}`}
            shown={props.shown}
          />
        ))}
    </div>
  );
}

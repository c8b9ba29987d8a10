// The graph diff (palette "Diff graph with a run or file…", the Runs list's "diff"): what changed
// from another version of the graph — the graph a stored run or batch ran (its version), or a graph
// file of the workspace — to the graph of the active tab, as edited now. Structural changes only
// (domain/graph/graph.diff.ts): nodes, edges, containers and slots, config values, routing; moved
// positions are counted.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { FileDiff } from 'lucide-react';
import { batchOfEpisodeRun } from '../../domain/batch/episodeIds.ts';
import { diffGraphs, type GraphChange, type GraphDiff } from '../../domain/graph/graph.diff.ts';
import type { BatchListItem } from '../../domain/batch/progress.ts';
import { shortVersion } from '../../domain/graph/graphVersion.ts';
import { batchApi } from '../batches/batch.api.ts';
import { evaluationApi } from '../batches/evaluation.api.ts';
import { api } from '../api/client.ts';
import { runApi } from '../run/run.api.ts';
import { runHistoryApi, type RunListItem } from '../run/runHistory.api.ts';
import { activeTab } from '../store/doc.slice.ts';
import { editorStore, useEditor } from '../store/editor.store.ts';
import { parseGraphInput } from '../store/graphIo.ts';
import { VersionTag } from '../ui/VersionTag.tsx';
import { DebugDialog } from '../viewer/DebugDialog.tsx';
import { mountOverlay } from '../viewer/overlayRoot.tsx';

/** What the active tab's graph is compared with: `run:<id>`, `batch:<id>` or `file:<id>`. */
export type DiffSource = `run:${string}` | `batch:${string}` | `file:${string}`;

interface GraphDiffState {
  open: boolean;
  source: DiffSource | null;
  runs: RunListItem[];
  batches: BatchListItem[];
  files: string[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  diff: GraphDiff | null;
  serial: number;
}

const graphDiffStore = createStore<GraphDiffState>()(() => ({
  open: false,
  source: null,
  runs: [],
  batches: [],
  files: [],
  status: 'idle',
  error: null,
  diff: null,
  serial: 0,
}));

/**
 * The graph a source's version names. A batch episode's run stores its seeded copy (each node seed
 * derived per episode); its version is its batch's graph, so that is what it is compared as.
 */
async function otherGraph(source: DiffSource): Promise<unknown> {
  const id = source.slice(source.indexOf(':') + 1);
  if (source.startsWith('file:')) return api.getGraph(id);
  const batch = source.startsWith('batch:') ? id : batchOfEpisodeRun(id);
  return batch ? evaluationApi.batchGraph(batch) : runApi.graph(id);
}

async function load(source: DiffSource): Promise<void> {
  const serial = graphDiffStore.getState().serial + 1;
  graphDiffStore.setState({ source, status: 'loading', error: null, serial });
  try {
    const tab = activeTab(editorStore.getState());
    if (!tab) throw new Error('no graph is open');
    const parsed = parseGraphInput(await otherGraph(source));
    if (!parsed.ok) throw new Error(`it does not parse: ${parsed.errors[0]?.message ?? 'invalid graph'}`);
    if (graphDiffStore.getState().serial !== serial) return;
    graphDiffStore.setState({ status: 'ready', diff: diffGraphs(parsed.graph, tab.graph) });
  } catch (e) {
    if (graphDiffStore.getState().serial !== serial) return;
    graphDiffStore.setState({ status: 'error', error: (e as Error).message, diff: null });
  }
}

const AREA_TONE: Record<GraphChange['op'], string> = {
  added: 'text-emerald-300',
  removed: 'text-red-300',
  changed: 'text-amber-200',
};

function GraphDiffDialog() {
  const s = useStore(graphDiffStore);
  const tab = useEditor((st) => activeTab(st));
  if (!s.open) return null;
  const runsOfGraph = s.runs.filter((r) => !tab || r.graph_name === tab.graph.name);
  return (
    <DebugDialog
      label="Graph diff"
      testId="graph-diff-view"
      status={s.status}
      closeTestId="graph-diff-close"
      onClose={() => graphDiffStore.setState({ open: false })}
      width="w-[760px]"
      header={
        <>
          <FileDiff size={13} className="text-sky-400" />
          <span className="font-semibold text-zinc-100">Graph diff</span>
          <span className="text-[10px] text-zinc-500">from the chosen version to this tab&apos;s graph</span>
        </>
      }
    >
      <label className="flex items-center gap-2 text-zinc-400">
        compare {tab?.graph.name || 'this graph'} with
        <select
          data-testid="graph-diff-source"
          className="max-w-[520px] flex-1 rounded border border-zinc-700 bg-zinc-950 px-1 text-[11px] text-zinc-200"
          value={s.source ?? ''}
          onChange={(e) => void load(e.target.value as DiffSource)}
        >
          {s.source === null && <option value="">pick a run or a file…</option>}
          <optgroup label={`runs of ${tab?.graph.name || 'this graph'} (the version each ran)`}>
            {runsOfGraph.map((r) => (
              <option key={r.id} value={`run:${r.id}`}>
                run {r.id} · v {shortVersion(r.graph_version)} · {r.status} ·{' '}
                {new Date(r.started_at).toLocaleString([], { hour12: false })}
              </option>
            ))}
          </optgroup>
          <optgroup label="batches (the version each ran)">
            {s.batches.map((i) => (
              <option key={i.batch.id} value={`batch:${i.batch.id}`}>
                batch {i.batch.id} · {i.batch.graph_name || 'untitled'} · v{' '}
                {shortVersion(i.batch.graph_version)}
                {i.batch.sets.length ? ` · ${i.batch.sets.join(' ')}` : ''}
              </option>
            ))}
          </optgroup>
          <optgroup label="graph files">
            {s.files.map((f) => (
              <option key={f} value={`file:${f}`}>
                {f}
              </option>
            ))}
          </optgroup>
        </select>
      </label>
      {s.source?.startsWith('run:') && (
        <div className="text-[11px] text-zinc-500">
          run version{' '}
          <VersionTag
            version={s.runs.find((r) => `run:${r.id}` === s.source)?.graph_version}
            testId="graph-diff-version"
          />
        </div>
      )}
      {s.status === 'loading' && <div className="text-zinc-500">Loading…</div>}
      {s.status === 'error' && (
        <div className="text-red-400" data-testid="graph-diff-error">
          {s.error}
        </div>
      )}
      {s.diff && s.status === 'ready' && (
        <div
          className="min-h-0 flex-1 overflow-y-auto rounded border border-zinc-800 bg-zinc-950 p-1"
          data-testid="graph-diff-changes"
        >
          {s.diff.same && s.diff.moved === 0 && (
            <div className="text-zinc-400">No changes: the same graph.</div>
          )}
          {s.diff.changes.map((c, i) => (
            <div
              key={i}
              className="flex gap-2 font-mono text-[11px]"
              data-testid="graph-diff-change"
              data-area={c.area}
            >
              <span className="w-16 shrink-0 text-[10px] text-zinc-500 uppercase">{c.area}</span>
              <span className={AREA_TONE[c.op]} data-testid="graph-diff-text">
                {c.text}
              </span>
            </div>
          ))}
          {s.diff.moved > 0 && (
            <div className="text-[11px] text-zinc-500">
              layout: {s.diff.moved} positions changed (not structure)
            </div>
          )}
        </div>
      )}
    </DebugDialog>
  );
}

/** Opens the graph diff of the active tab against `source` (or lets the user pick one). */
export function showGraphDiff(source?: DiffSource): void {
  mountOverlay('graph-diff-view', <GraphDiffDialog />);
  graphDiffStore.setState({ open: true, source: source ?? null, diff: null, status: 'idle', error: null });
  if (source) void load(source);
  runHistoryApi.list().then(
    (runs) =>
      graphDiffStore.setState({ runs: [...runs].sort((a, b) => b.started_at.localeCompare(a.started_at)) }),
    () => undefined,
  );
  batchApi.list().then(
    (batches) => graphDiffStore.setState({ batches }),
    () => undefined,
  );
  api.listGraphs().then(
    (list) => graphDiffStore.setState({ files: list.map((g) => g._id).sort() }),
    () => undefined,
  );
}

// Inspector when nothing (or several things) is selected: the graph's own settings.
import type { OpResult } from '../../../domain/graph/graph.ops.ts';
import type { GraphDef } from '../../../domain/graph/graph.schema.ts';
import { activeTab } from '../../store/doc.slice.ts';
import { editorStore, useEditor } from '../../store/editor.store.ts';
import { CommitInput } from '../../ui/CommitInput.tsx';
import { Field } from '../../ui/Field.tsx';
import { FeaturesSection } from '../../routing/FeaturesSection.tsx';

const set = (patch: Partial<GraphDef>) => {
  const r = editorStore.getState().editRoot((g): OpResult => ({ ok: true, graph: { ...g, ...patch } }));
  return r.ok ? null : r.reason;
};

export function GraphInspector() {
  const g = useEditor((s) => activeTab(s)?.graph);
  const sel = useEditor(
    (s) =>
      s.selection.nodes.length +
      s.selection.containers.length +
      s.selection.edges.length +
      s.selection.grants.length,
  );
  if (!g) return null;
  return (
    <div data-testid="graph-inspector">
      {sel > 1 && <div className="mb-2 text-xs text-zinc-400">{sel} elements selected</div>}
      <div className="mb-2 text-[10px] font-semibold tracking-wider text-zinc-500 uppercase">Graph</div>
      <Field label="name">
        <CommitInput testId="graph-name" value={g.name} onCommit={(v) => set({ name: v })} />
      </Field>
      <Field label="description">
        <CommitInput
          testId="graph-description"
          value={g.description}
          multiline
          onCommit={(v) => set({ description: v })}
        />
      </Field>
      <Field label="step_budget" hint="per-episode iteration cap of the root loop (empty = runtime default)">
        <CommitInput
          testId="graph-step-budget"
          value={g.step_budget === null ? '' : String(g.step_budget)}
          onCommit={(v) => {
            if (v.trim() === '') return set({ step_budget: null });
            const n = Number(v);
            return Number.isInteger(n) && n > 0
              ? set({ step_budget: n })
              : 'step_budget must be a positive whole number';
          }}
        />
      </Field>
      <Field label="eval_graph" hint="an eval graph must contain a graphOut">
        <input
          type="checkbox"
          data-testid="graph-eval"
          checked={g.eval_graph}
          onChange={(e) => set({ eval_graph: e.target.checked })}
        />
      </Field>
      <FeaturesSection />
      <div className="mt-2 text-[11px] text-zinc-500">
        {g.nodes.length} nodes · {g.edges.length} edges · {g.containers.length} containers ·{' '}
        {g.access_grants.length} grants
      </div>
    </div>
  );
}

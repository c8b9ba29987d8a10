// Routing in the run views: the timeline step view's "which edge each routing node took and why"
// (StepRoutes), and the feature values of the followed run — live, or at the inspected step — as the
// State panel's Features group and the step view's feature rows.
import { GitBranch, Waypoints } from 'lucide-react';
import type { FeatureDef } from '../../domain/routing/routing.schema.ts';
import type { FeatureValues } from '../../domain/protocol/protocol.ts';
import { useRun, viewFeatures, type RouteTaken } from '../run/run.store.ts';
import { currentLevel, editorStore, useEditor } from '../store/editor.store.ts';
import { domainText, valueText } from './conditionText.ts';

const NO_ROUTES: RouteTaken[] = [];
const NO_FEATURES: FeatureDef[] = [];

/** The route as one line's parts, and its candidates for the tooltip. */
export function routeLine(r: RouteTaken): { target: string; title: string } {
  const target = r.candidates.find((c) => c.edge_id === r.edge_id)?.target ?? r.edge_id;
  const rows = r.candidates.map((c) => {
    const cond = c.condition ?? 'unconditional';
    const eff = c.effect ? ` ⇒ ${c.effect}` : '';
    const verdict =
      c.edge_id === r.edge_id
        ? 'taken'
        : !c.condition_holds
          ? 'condition false'
          : !c.effect_ok
            ? `effect refused${c.effect_reason ? `: ${c.effect_reason}` : ''}`
            : 'not taken';
    return `  ${c.edge_id} → ${c.target}: ${cond}${eff} — ${verdict}`;
  });
  return {
    target,
    title: `${r.node_id}.${r.port} took ${r.edge_id} → ${target}\nbecause ${r.reason}\n${rows.join('\n')}`,
  };
}

const selectEdge = (id: string) =>
  editorStore.getState().setSelection({ nodes: [], containers: [], edges: [id], grants: [] });

/** The routes a step took, one line each: `router → target (edge) because …`. */
export function StepRoutes({ step }: { step: number }) {
  const routes = useRun((s) => s.routes[step] ?? NO_ROUTES);
  if (routes.length === 0) return null;
  return (
    <div className="mb-0.5 space-y-0.5" data-testid="timeline-routes">
      {routes.map((r) => {
        const { target, title } = routeLine(r);
        return (
          <button
            type="button"
            key={r.seq}
            data-testid={`timeline-route-${r.node_id}`}
            title={title}
            onClick={() => selectEdge(r.edge_id)}
            className="flex w-full min-w-0 items-center gap-1 text-left hover:bg-zinc-800/60"
          >
            <GitBranch size={11} className="shrink-0 text-emerald-400" />
            <span className="shrink-0 text-zinc-300">{r.node_id}</span>
            <span className="shrink-0 text-emerald-300">→ {target}</span>
            <span className="min-w-0 truncate text-zinc-500">because {r.reason}</span>
          </button>
        );
      })}
    </div>
  );
}

function shown(v: FeatureValues[string] | undefined): string {
  return v === null || v === undefined ? 'unset' : valueText(v);
}

/** Feature rows for the step view's values table (`feature phase | explore`). */
export function StepFeatureRows() {
  const values = useRun(viewFeatures);
  return Object.entries(values).map(([name, v]) => (
    <tr
      key={`feature/${name}`}
      className="border-t border-zinc-800/60"
      data-testid={`timeline-feature-${name}`}
    >
      <td className="w-1/3 truncate px-1 text-amber-300" title="routing feature">
        feature {name}
      </td>
      <td className={`truncate px-1 font-mono ${v === null ? 'text-zinc-500 italic' : 'text-zinc-300'}`}>
        {shown(v)}
      </td>
    </tr>
  ));
}

/** State panel › Features: each declared feature of the level with its value in the followed run. */
export function FeaturesGroup() {
  const declared = useEditor((s) => currentLevel(s).features ?? NO_FEATURES);
  const values = useRun(viewFeatures);
  const inspecting = useRun((s) => s.inspectedStep !== null);
  const extra = Object.keys(values).filter((k) => !declared.some((f) => f.name === k));
  if (declared.length === 0 && extra.length === 0) return null;
  return (
    <div className="mb-2" data-testid="state-features">
      <div className="flex items-center gap-1 px-1">
        <Waypoints size={11} className="text-amber-400" />
        <span className="font-semibold text-zinc-200">Features</span>
        <span className="text-zinc-500">{declared.length} declared · routing state</span>
      </div>
      <table className="mt-0.5 w-full table-fixed">
        <thead>
          <tr className="text-left text-[10px] text-zinc-500">
            <th className="w-[30%] px-1 font-normal">Name</th>
            <th className="w-[35%] px-1 font-normal">Domain</th>
            <th className="px-1 font-normal">Value</th>
          </tr>
        </thead>
        <tbody>
          {[
            ...declared.map((f) => ({ name: f.name, domain: domainText(f.domain) })),
            ...extra.map((name) => ({ name, domain: '(not declared)' })),
          ].map(({ name, domain }) => {
            const v = values[name];
            return (
              <tr key={name} className="border-t border-zinc-800/60" data-testid={`state-feature-${name}`}>
                <td className="truncate px-1 font-mono text-amber-300">{name}</td>
                <td className="truncate px-1 font-mono text-[10px] text-zinc-500" title={domain}>
                  {domain}
                </td>
                <td
                  data-testid={`state-feature-value-${name}`}
                  data-inspecting={inspecting ? 'true' : 'false'}
                  className={`truncate px-1 font-mono text-[11px] ${name in values ? (v === null ? 'text-zinc-500 italic' : 'text-zinc-200') : 'text-zinc-600'}`}
                >
                  {name in values ? shown(v) : '—'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

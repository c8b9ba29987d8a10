// Inspector for one data edge: where it runs, the other edges of its routing port (exactly one of
// them is taken per visit), and its condition and effect — as a form, or as the raw JSON of the same
// `{condition, effect}` object. A form change that makes a valid condition is one store edit
// (undoable); a draft that is not one yet, or JSON that does not parse, shows why and leaves the
// edge as it was.
import { useState } from 'react';
import { Braces, Trash2 } from 'lucide-react';
import type { EdgeDef } from '../../domain/graph/graph.schema.ts';
import type { EdgeRoute, FeatureDef } from '../../domain/routing/routing.schema.ts';
import { currentLevel, editorStore, useEditor } from '../store/editor.store.ts';
import { Button } from '../ui/Button.tsx';
import { ConditionRow } from './ConditionEditor.tsx';
import { EffectEditor } from './EffectEditor.tsx';
import {
  conditionFromForm,
  conditionToForm,
  defaultLeaf,
  effectFromForm,
  effectToForm,
  routeFromJson,
  routeToJson,
  type ConditionForm,
  type EffectForm,
} from './conditionForm.ts';
import { chipText } from './conditionText.ts';
import { setEdgeRoute } from './routing.ops.ts';

const NO_FEATURES: FeatureDef[] = [];

const section = 'mt-3 mb-1 text-[10px] font-semibold tracking-wider text-zinc-500 uppercase';

function commitRoute(id: string, route: EdgeRoute): string | null {
  const r = editorStore.getState().edit((g) => setEdgeRoute(g, id, route));
  return r.ok ? null : r.reason;
}

/** The slots of containers granted to a node, as `container.slot` (what a slot condition may read). */
function grantedSlots(nodeId: string): string[] {
  const level = currentLevel(editorStore.getState());
  const ids = new Set(level.access_grants.filter((g) => g.node_id === nodeId).map((g) => g.container_id));
  return level.containers
    .filter((c) => ids.has(c.id))
    .flatMap((c) => Object.keys(c.states).map((s) => `${c.id}.${s}`));
}

function PortSiblings({ edge }: { edge: EdgeDef }) {
  const all = useEditor((s) => currentLevel(s).edges);
  const siblings = all.filter((e) => e.source === edge.source && e.sourceHandle === edge.sourceHandle);
  // Plain fan-out (no edge of the port routed) delivers on every edge: no choice to explain.
  if (siblings.length < 2 || !siblings.some((e) => e.condition !== undefined || e.effect !== undefined))
    return null;
  return (
    <div data-testid="edge-port-siblings" className="mt-2 rounded bg-zinc-900 px-1.5 py-1 text-[11px]">
      <div className="mb-0.5 text-zinc-400">
        Routing port{' '}
        <span className="font-mono text-zinc-200">
          {edge.source}.{edge.sourceHandle || 'output'}
        </span>
        : exactly one of these {siblings.length} edges is taken per visit
      </div>
      {siblings.map((e) => (
        <button
          key={e.id}
          type="button"
          data-testid={`edge-sibling-${e.id}`}
          className={`flex w-full gap-1 truncate text-left hover:underline ${e.id === edge.id ? 'text-sky-300' : 'text-zinc-400'}`}
          onClick={() =>
            editorStore.getState().setSelection({ nodes: [], containers: [], edges: [e.id], grants: [] })
          }
        >
          <span className="shrink-0">→ {e.target}</span>
          <span className="truncate font-mono text-zinc-500">{chipText(e)?.full ?? 'unconditional'}</span>
        </button>
      ))}
    </div>
  );
}

function RawJson({ edge, onClose }: { edge: EdgeDef; onClose: () => void }) {
  const [text, setText] = useState(() => routeToJson(edge));
  const [error, setError] = useState<string | null>(null);
  const apply = () => {
    const r = routeFromJson(text);
    if (!r.ok) return setError(r.error);
    const why = commitRoute(edge.id, r.value);
    setError(why);
  };
  return (
    <div data-testid="route-json" className="space-y-1">
      <textarea
        data-testid="route-json-text"
        spellCheck={false}
        rows={10}
        className={`w-full rounded border bg-zinc-950 px-1.5 py-1 font-mono text-[11px] outline-none focus:border-sky-600 ${error ? 'border-red-600' : 'border-zinc-700'}`}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) apply();
        }}
      />
      {error && (
        <div data-testid="route-json-error" className="text-[10px] text-red-400">
          {error} — the edge is unchanged
        </div>
      )}
      <div className="flex justify-end gap-1">
        <Button variant="ghost" onClick={onClose}>
          Form
        </Button>
        <Button variant="primary" data-testid="route-json-apply" onClick={apply} title="Apply (Ctrl+Enter)">
          Apply JSON
        </Button>
      </div>
    </div>
  );
}

export function EdgeInspector({ id }: { id: string }) {
  const edge = useEditor((s) => currentLevel(s).edges.find((e) => e.id === id));
  const features = useEditor((s) => currentLevel(s).features ?? NO_FEATURES);
  const key = JSON.stringify([edge?.condition, edge?.effect]);
  const [synced, setSynced] = useState(key);
  const [cond, setCond] = useState<ConditionForm | null>(
    edge?.condition ? conditionToForm(edge.condition) : null,
  );
  const [eff, setEff] = useState<EffectForm>(() => effectToForm(edge?.effect));
  const [condError, setCondError] = useState<string | null>(null);
  const [effError, setEffError] = useState<string | null>(null);
  const [raw, setRaw] = useState(false);
  // The edge changed under the form (undo, the JSON view, a rename): show what it holds now.
  if (synced !== key) {
    setSynced(key);
    setCond(edge?.condition ? conditionToForm(edge.condition) : null);
    setEff(effectToForm(edge?.effect));
    setCondError(null);
    setEffError(null);
  }
  if (!edge) return null;

  const changeCond = (next: ConditionForm | null) => {
    setCond(next);
    if (next === null) return setCondError(commitRoute(id, { effect: edge.effect }));
    const r = conditionFromForm(next);
    setCondError(r.ok ? commitRoute(id, { condition: r.value, effect: edge.effect }) : r.error);
  };
  const changeEff = (next: EffectForm) => {
    setEff(next);
    const r = effectFromForm(next);
    setEffError(r.ok ? commitRoute(id, { condition: edge.condition, effect: r.value }) : r.error);
  };
  const chip = chipText(edge);

  return (
    <div data-testid="edge-inspector">
      <div className="mb-2 flex items-center text-[10px] font-semibold tracking-wider text-sky-400 uppercase">
        Data edge
        <button
          type="button"
          data-testid="route-json-toggle"
          data-open={raw ? 'true' : 'false'}
          title="Show and edit the condition/effect as raw JSON"
          className={`ml-auto flex items-center gap-0.5 rounded px-1 font-normal tracking-normal normal-case ${raw ? 'bg-sky-800 text-white' : 'text-zinc-400 hover:bg-zinc-800'}`}
          onClick={() => setRaw((r) => !r)}
        >
          <Braces size={11} /> raw JSON
        </button>
      </div>
      <div className="text-xs text-zinc-300">
        <span className="font-mono">{edge.source}</span>
        <span className="text-zinc-500">.{edge.sourceHandle || 'output'}</span> →{' '}
        <span className="font-mono">{edge.target}</span>
        <span className="text-zinc-500">.{edge.targetHandle || 'input'}</span>
      </div>
      <div className="text-[10px] text-zinc-600">{edge.id}</div>
      {chip && (
        <div
          data-testid="edge-route-summary"
          className="mt-1 font-mono text-[11px] text-amber-200"
          title={chip.full}
        >
          {chip.full}
        </div>
      )}
      <PortSiblings edge={edge} />
      {raw ? (
        <>
          <div className={section}>Condition / effect (JSON)</div>
          <RawJson key={key} edge={edge} onClose={() => setRaw(false)} />
        </>
      ) : (
        <>
          <div className={`${section} flex items-center`}>
            Condition
            {cond && (
              <button
                type="button"
                data-testid="condition-clear"
                title="Remove the condition (the edge becomes unconditional)"
                className="ml-auto text-zinc-500 hover:text-red-400"
                onClick={() => changeCond(null)}
              >
                <Trash2 size={11} />
              </button>
            )}
          </div>
          {cond ? (
            <ConditionRow
              form={cond}
              features={features}
              slots={grantedSlots(edge.source)}
              testId="cond"
              onChange={changeCond}
            />
          ) : (
            <div className="text-[11px] text-zinc-500">
              Unconditional.{' '}
              <button
                type="button"
                data-testid="condition-add"
                className="text-sky-400 hover:underline"
                onClick={() => changeCond(defaultLeaf(features))}
              >
                Add a condition
              </button>
              {features.length === 0 && (
                <div className="mt-0.5 italic">
                  Declare features in the graph inspector (click the canvas) to route on them.
                </div>
              )}
            </div>
          )}
          {condError && (
            <div data-testid="condition-error" className="mt-1 text-[10px] text-red-400">
              {condError} — the edge keeps its last valid condition
            </div>
          )}
          <div className={section}>Effect</div>
          <EffectEditor form={eff} features={features} onChange={changeEff} />
          {effError && (
            <div data-testid="effect-error" className="mt-1 text-[10px] text-red-400">
              {effError} — the edge keeps its last valid effect
            </div>
          )}
        </>
      )}
    </div>
  );
}

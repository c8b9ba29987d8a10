// The Breakpoints panel: every breakpoint of the active tab's graph (enable, remove), the one the
// run is paused at highlighted, and a form to add one — on a slot (on write, on clear, or when its
// value matches a condition) or on a node (pause before it fires; defaults to the selected node).
import { useState } from 'react';
import { CONDITION_OPS, describeBreakpoint, type ConditionOp } from '../../../domain/debug/breakpoints.ts';
import {
  addBreakpoint,
  breakpointsStore,
  removeBreakpoint,
  setBreakpointEnabled,
  useBreakpoints,
} from '../../debug/breakpoints.store.ts';
import { useStore } from 'zustand';
import { currentLevel, useEditor } from '../../store/editor.store.ts';
import { useRun } from '../../run/run.store.ts';

type Kind = 'write' | 'clear' | 'match' | 'node';

const field = 'rounded border border-zinc-700 bg-zinc-900 px-1 py-0.5 text-[11px] text-zinc-200';

/** `10` → 10, `"x"` → "x", `[1]` → [1]; anything that is not JSON is the text itself. */
function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function AddForm({ tabId }: { tabId: string }) {
  const containers = useEditor((s) => currentLevel(s).containers);
  const nodes = useEditor((s) => currentLevel(s).nodes);
  const selectedNode = useEditor((s) => s.selection.nodes[0] ?? null);
  const [kind, setKind] = useState<Kind>('match');
  const [slotRef, setSlotRef] = useState('');
  const [path, setPath] = useState('');
  const [op, setOp] = useState<ConditionOp>('>=');
  const [value, setValue] = useState('');
  const [nodeId, setNodeId] = useState('');
  const slots = containers.flatMap((c) => Object.keys(c.states).map((s) => `${c.id}.${s}`));
  const chosenSlot = slotRef || slots[0] || '';
  const chosenNode = nodeId || selectedNode || nodes.find((n) => n.type !== 'note')?.id || '';
  const add = () => {
    if (kind === 'node') {
      if (chosenNode) addBreakpoint(tabId, { kind: 'node', node_id: chosenNode });
      return;
    }
    const [container, slot] = chosenSlot.split('.') as [string, string];
    if (!container || !slot) return;
    if (kind === 'match') addBreakpoint(tabId, { kind, container, slot, path, op, value: parseValue(value) });
    else addBreakpoint(tabId, { kind, container, slot });
  };
  return (
    <div className="flex flex-wrap items-center gap-1 border-b border-zinc-800 pb-1" data-testid="bp-form">
      <select
        className={field}
        value={kind}
        onChange={(e) => setKind(e.target.value as Kind)}
        data-testid="bp-kind"
      >
        <option value="match">when value matches</option>
        <option value="write">on write</option>
        <option value="clear">on clear</option>
        <option value="node">before node fires</option>
      </select>
      {kind === 'node' ? (
        <select
          className={field}
          value={chosenNode}
          onChange={(e) => setNodeId(e.target.value)}
          data-testid="bp-node"
        >
          {nodes
            .filter((n) => n.type !== 'note')
            .map((n) => (
              <option key={n.id} value={n.id}>
                {n.label || n.id} ({n.id})
              </option>
            ))}
        </select>
      ) : (
        <select
          className={field}
          value={chosenSlot}
          onChange={(e) => setSlotRef(e.target.value)}
          data-testid="bp-slot"
        >
          {slots.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      )}
      {kind === 'match' && (
        <>
          <input
            className={`${field} w-24`}
            placeholder="path (a.b[0])"
            value={path}
            onChange={(e) => setPath(e.target.value)}
            data-testid="bp-path"
          />
          <select
            className={field}
            value={op}
            onChange={(e) => setOp(e.target.value as ConditionOp)}
            data-testid="bp-op"
          >
            {CONDITION_OPS.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
          <input
            className={`${field} w-24`}
            placeholder="value (JSON)"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            data-testid="bp-value"
          />
        </>
      )}
      <button
        type="button"
        onClick={add}
        data-testid="bp-add"
        className="rounded bg-red-600/80 px-2 py-0.5 text-[11px] text-white hover:bg-red-500"
      >
        Add breakpoint
      </button>
    </div>
  );
}

export function BreakpointsPanel() {
  const tabId = useEditor((s) => s.activeTabId);
  const list = useBreakpoints(tabId);
  const hit = useRun((s) => s.breakpointHit);
  const error = useStore(breakpointsStore, (s) => s.error);
  if (!tabId) return <div className="p-2 text-xs text-zinc-500">Open a graph to set breakpoints.</div>;
  return (
    <div className="p-1 text-xs" data-testid="breakpoints-panel">
      <AddForm tabId={tabId} />
      {error && <div className="px-1 py-0.5 text-red-400">{error}</div>}
      {list.length === 0 && (
        <div className="p-1 text-zinc-500">
          No breakpoints. Add one above, or click the dot on a slot row (State panel or container box) to
          break on its writes.
        </div>
      )}
      <ul>
        {list.map((b) => {
          const active = hit?.breakpoint_id === b.id;
          return (
            <li
              key={b.id}
              data-testid={`bp-row-${b.id}`}
              data-hit={active ? 'true' : 'false'}
              className={`flex items-center gap-2 px-1 py-0.5 ${active ? 'bg-amber-500/15 text-amber-200' : ''}`}
            >
              <input
                type="checkbox"
                checked={b.enabled}
                onChange={(e) => setBreakpointEnabled(tabId, b.id, e.target.checked)}
                data-testid="bp-enabled"
                title={b.enabled ? 'enabled: click to disable' : 'disabled: click to enable'}
              />
              <span className={`h-2 w-2 rounded-full ${b.enabled ? 'bg-red-500' : 'bg-zinc-600'}`} />
              <span className={`font-mono ${b.enabled ? 'text-zinc-200' : 'text-zinc-500 line-through'}`}>
                {describeBreakpoint(b)}
              </span>
              {active && (
                <span data-testid="bp-hit" className="text-amber-300">
                  ← paused here (step {hit.step}
                  {hit.node_id && hit.kind !== 'node' ? `, written by ${hit.node_id}` : ''})
                </span>
              )}
              <button
                type="button"
                className="ml-auto text-zinc-500 hover:text-red-400"
                onClick={() => removeBreakpoint(tabId, b.id)}
                data-testid="bp-remove"
                title="remove"
              >
                ×
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

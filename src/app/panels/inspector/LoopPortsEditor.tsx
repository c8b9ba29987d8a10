// Editor for an iterIn's `initPorts` or an iterOut's carry `ports`: name, wire type, persist
// (and required for carry ports). Each change rewrites the whole list in one undo step.
import { Plus, Trash2 } from 'lucide-react';
import { setNodeConfig } from '../../../domain/graph/graph.ops.ts';
import type { LoopPort } from '../../../domain/graph/graph.schema.ts';
import { loopPortsOf } from '../../../domain/flow/loopPorts.ts';
import { WIRE_TYPES } from '../../../domain/flow/wireTypes.ts';
import { editorStore } from '../../store/editor.store.ts';
import { Button } from '../../ui/Button.tsx';
import { CommitInput } from '../../ui/CommitInput.tsx';
import { selectCls } from '../../ui/Field.tsx';

export function LoopPortsEditor({
  nodeId,
  configKey,
  value,
  showRequired,
  title,
}: {
  nodeId: string;
  configKey: 'initPorts' | 'ports';
  value: unknown;
  showRequired: boolean;
  title: string;
}) {
  const ports = loopPortsOf(value);
  const write = (next: LoopPort[]) => {
    const r = editorStore.getState().edit((g) => setNodeConfig(g, nodeId, configKey, next));
    return r.ok ? null : r.reason;
  };
  const patch = (i: number, p: Partial<LoopPort>) =>
    write(ports.map((x, j) => (j === i ? { ...x, ...p } : x)));
  const nameProblem = (name: string, i: number) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return 'port names are identifiers (letters, digits, _)';
    if (ports.some((p, j) => j !== i && p.name === name)) return `port "${name}" already exists`;
    return null;
  };
  return (
    <div data-testid={`loop-ports-${configKey}`} className="mt-2">
      <div className="mb-1 flex items-center text-[10px] font-semibold tracking-wider text-zinc-500 uppercase">
        {title}
        <Button
          className="ml-auto"
          data-testid={`add-${configKey}`}
          onClick={() => {
            let n = 1;
            while (ports.some((p) => p.name === `port_${n}`)) n++;
            write([...ports, { name: `port_${n}`, wire_type: 'ANY', persist: configKey === 'ports' }]);
          }}
        >
          <Plus size={11} /> Add
        </Button>
      </div>
      {ports.length === 0 && <div className="text-xs text-zinc-500 italic">none</div>}
      {ports.map((p, i) => (
        <div key={`${i}-${p.name}`} className="mb-1 flex items-center gap-1 text-xs">
          <CommitInput
            value={p.name}
            testId={`${configKey}-${i}-name`}
            onCommit={(v) => nameProblem(v, i) ?? patch(i, { name: v })}
          />
          <select
            className={selectCls}
            value={p.wire_type ?? 'ANY'}
            onChange={(e) => patch(i, { wire_type: e.target.value })}
          >
            {[...new Set([...(p.wire_type ? [p.wire_type] : []), ...WIRE_TYPES])].map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
          <label
            className="flex items-center gap-0.5 text-[10px] text-zinc-400"
            title="persist: keep the value across iterations"
          >
            <input
              type="checkbox"
              checked={p.persist ?? configKey === 'ports'}
              onChange={(e) => patch(i, { persist: e.target.checked })}
            />
            persist
          </label>
          {showRequired && (
            <label className="flex items-center gap-0.5 text-[10px] text-zinc-400">
              <input
                type="checkbox"
                checked={p.required === true}
                onChange={(e) => patch(i, { required: e.target.checked })}
              />
              req
            </label>
          )}
          <button
            type="button"
            title="Remove port"
            className="text-zinc-500 hover:text-red-400"
            onClick={() => write(ports.filter((_, j) => j !== i))}
          >
            <Trash2 size={11} />
          </button>
        </div>
      ))}
    </div>
  );
}

// Inspector for a graph node: id (renamed everywhere it is referenced), label, type, position, the
// config form its type's `config_schema` declares (ConfigSchemaForm), then any other config key by
// its value (scalar fields, JSON for complex values), loop port editors, the node's local state in
// the followed run (live, or at the inspected step) and the node's grants.
// Node-service types say here when their service is down or missing.
import { useMemo } from 'react';
import { Trash2 } from 'lucide-react';
import { useShallow } from 'zustand/react/shallow';
import { removeElements, renameNodeId, setNodeConfig, updateNode } from '../../../domain/graph/graph.ops.ts';
import { synthesizeIterInPorts } from '../../../domain/flow/loopPorts.ts';
import { currentLevel, editorStore, selectNode, useEditor } from '../../store/editor.store.ts';
import { Button } from '../../ui/Button.tsx';
import { CommitInput } from '../../ui/CommitInput.tsx';
import { Field } from '../../ui/Field.tsx';
import { LoopPortsEditor } from './LoopPortsEditor.tsx';
import { ConfigSchemaForm } from './ConfigSchemaForm.tsx';
import { schemaFields } from './configSchema.ts';
import { serviceProblemOf } from '../../services/serviceIssues.ts';
import { NodeLocalState } from './NodeLocalState.tsx';

const HIDDEN_KEYS = new Set(['ports', 'initPorts', 'pairedWith', 'hooks']);
const reasonOf = (r: { ok: boolean; reason?: string }) => (r.ok ? null : (r as { reason: string }).reason);

function ConfigField({ nodeId, k, v }: { nodeId: string; k: string; v: unknown }) {
  const edit = editorStore.getState().edit;
  if (typeof v === 'boolean') {
    return (
      <Field label={k}>
        <input
          type="checkbox"
          checked={v}
          onChange={(e) => edit((g) => setNodeConfig(g, nodeId, k, e.target.checked))}
        />
      </Field>
    );
  }
  if (typeof v === 'number') {
    return (
      <Field label={k}>
        <CommitInput
          value={String(v)}
          testId={`config-${k}`}
          onCommit={(t) =>
            Number.isFinite(Number(t)) && t.trim() !== ''
              ? reasonOf(edit((g) => setNodeConfig(g, nodeId, k, Number(t))))
              : `${k} must be a number`
          }
        />
      </Field>
    );
  }
  if (typeof v === 'string') {
    return (
      <Field label={k}>
        <CommitInput
          value={v}
          testId={`config-${k}`}
          multiline={v.length > 40 || k === 'template' || k === 'markdown'}
          onCommit={(t) => reasonOf(edit((g) => setNodeConfig(g, nodeId, k, t)))}
        />
      </Field>
    );
  }
  return (
    <Field label={k}>
      <CommitInput
        value={JSON.stringify(v)}
        testId={`config-${k}`}
        multiline
        onCommit={(t) => {
          try {
            return reasonOf(edit((g) => setNodeConfig(g, nodeId, k, JSON.parse(t) as unknown)));
          } catch (e) {
            return `not valid JSON: ${(e as Error).message}`;
          }
        }}
      />
    </Field>
  );
}

export function NodeInspector({ id }: { id: string }) {
  const node = useEditor((s) => selectNode(s, id));
  const spec = useEditor((s) => (node ? s.catalog.get(node.type) : undefined));
  const grants = useEditor(useShallow((s) => currentLevel(s).access_grants.filter((g) => g.node_id === id)));
  const levelContainers = useEditor(useShallow((s) => currentLevel(s).containers.map((c) => c.id)));
  const level = useEditor(currentLevel);
  const problem = useEditor((s) => (node ? serviceProblemOf(node.type, s.catalog, s.services) : null));
  const schema = spec?.config_schema;
  const fields = useMemo(() => schemaFields(schema).filter((f) => !HIDDEN_KEYS.has(f.key)), [schema]);
  const synthesized = useMemo(
    () => (node?.type === 'iterIn' ? synthesizeIterInPorts(level, node) : []),
    [level, node],
  );
  if (!node) return null;
  const s = editorStore.getState();
  return (
    <div data-testid="node-inspector">
      <div className="mb-2 text-[10px] font-semibold tracking-wider text-sky-400 uppercase">
        {spec?.display_name ?? node.type}
      </div>
      {spec?.description && <div className="mb-2 text-[11px] text-zinc-500">{spec.description}</div>}
      {problem && (
        <div
          data-testid="inspector-service-problem"
          className={`mb-3 rounded px-1.5 py-1 text-[11px] leading-snug ${problem.severity === 'error' ? 'bg-red-900/40 text-red-300' : 'bg-amber-900/40 text-amber-300'}`}
        >
          {problem.message}
        </div>
      )}
      {!spec && !node.subgraph && !problem && (
        <div className="mb-3 rounded bg-amber-900/40 px-1.5 py-1 text-[11px] leading-snug text-amber-300">
          unknown type: not in the catalog (kept as is)
        </div>
      )}
      <Field label="id">
        <CommitInput
          testId="node-id"
          value={node.id}
          onCommit={(v) => {
            const r = s.edit((g) => renameNodeId(g, id, v.trim()));
            if (r.ok)
              editorStore
                .getState()
                .setSelection({ nodes: [v.trim()], containers: [], edges: [], grants: [] });
            return reasonOf(r);
          }}
        />
      </Field>
      <Field label="label">
        <CommitInput
          testId="node-label"
          value={node.label}
          onCommit={(v) => reasonOf(s.edit((g) => updateNode(g, id, (n) => ({ ...n, label: v }))))}
        />
      </Field>
      <Field label="type">
        <span className="text-xs text-zinc-300">{node.type}</span>
      </Field>
      <Field label="position">
        <span className="text-xs text-zinc-500">
          {node.position.x}, {node.position.y}
        </span>
      </Field>
      {typeof node.config.pairedWith === 'string' && (
        <Field label="paired with">
          <span className="text-xs text-zinc-300">{node.config.pairedWith}</span>
        </Field>
      )}
      {node.subgraph && (
        <Button className="my-1" onClick={() => s.enterComposite(id)} data-testid="open-composite">
          Open composite ({node.subgraph.nodes.length} nodes)
        </Button>
      )}
      {node.type === 'iterIn' && (
        <>
          <LoopPortsEditor
            nodeId={id}
            configKey="initPorts"
            value={node.config.initPorts}
            showRequired={false}
            title="Init ports (run start)"
          />
          <div className="mt-1 text-[10px] text-zinc-500">
            Synthesized handles: step,{' '}
            {synthesized.map((p) => `${p.name}${p.persist ? '' : ' (one-shot)'}`).join(', ') || '—'}
          </div>
        </>
      )}
      {node.type === 'iterOut' && (
        <LoopPortsEditor
          nodeId={id}
          configKey="ports"
          value={node.config.ports}
          showRequired
          title="Carry ports"
        />
      )}
      <NodeLocalState nodeId={id} />
      <div className="mt-2 mb-1 text-[10px] font-semibold tracking-wider text-zinc-500 uppercase">Config</div>
      <ConfigSchemaForm nodeId={id} fields={fields} config={node.config} />
      {Object.entries(node.config)
        .filter(([k]) => !HIDDEN_KEYS.has(k) && !k.startsWith('_') && !fields.some((f) => f.key === k))
        .map(([k, v]) => (
          <ConfigField key={k} nodeId={id} k={k} v={v} />
        ))}
      <div className="mt-2 mb-1 text-[10px] font-semibold tracking-wider text-zinc-500 uppercase">
        State access ({grants.length})
      </div>
      {grants.length === 0 && (
        <div className="text-[11px] text-zinc-500 italic">
          Drag the node's violet state handle to a container to grant access.
        </div>
      )}
      {grants.map((g) => (
        <div key={g.id} className="flex items-center gap-1 text-xs text-zinc-300" data-testid="node-grant">
          <span className="truncate text-violet-300">{g.container_id}</span>
          {!levelContainers.includes(g.container_id) && (
            // Inside a composite: the engine resolves it to the enclosing graph's container.
            <span
              className="truncate text-[10px] text-zinc-500"
              title="This subgraph does not declare it: the grant reaches the container of that name in an enclosing graph"
            >
              in an enclosing graph
            </span>
          )}
          <button
            type="button"
            title="Remove grant"
            className="ml-auto text-zinc-500 hover:text-red-400"
            onClick={() => s.edit((gr) => removeElements(gr, { grants: [g.id] }))}
          >
            <Trash2 size={11} />
          </button>
        </div>
      ))}
    </div>
  );
}

// Right panel: inspector for the single selected node, container or data edge, else the graph settings.
import { Suspense } from 'react';
import { activeTab } from '../../store/doc.slice.ts';
import { useEditor } from '../../store/editor.store.ts';
import { lazyNamed } from '../../ui/lazyNamed.ts';
import { GraphInspector } from './GraphInspector.tsx';

// The graph settings show at start; the per-element inspectors are loaded when first selected.
const NodeInspector = lazyNamed(() => import('./NodeInspector.tsx'), 'NodeInspector');
const ContainerInspector = lazyNamed(() => import('./ContainerInspector.tsx'), 'ContainerInspector');
const EdgeInspector = lazyNamed(() => import('../../routing/EdgeInspector.tsx'), 'EdgeInspector');

export function Inspector() {
  const single = useEditor((s) => {
    const { nodes, containers, edges, grants } = s.selection;
    if (nodes.length + containers.length + edges.length + grants.length !== 1) return null;
    if (nodes[0]) return `n:${nodes[0]}`;
    if (containers[0]) return `c:${containers[0]}`;
    if (edges[0]) return `e:${edges[0]}`;
    return null;
  });
  const unreadable = useEditor((s) => Boolean(activeTab(s)?.unreadable));
  return (
    <aside
      className="flex w-80 shrink-0 flex-col border-l border-zinc-800 bg-zinc-925"
      data-testid="inspector"
    >
      <div className="border-b border-zinc-800 px-2 py-1 text-[10px] font-semibold tracking-wider text-zinc-500 uppercase">
        Inspector
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-2">
        <Suspense fallback={null}>
          {unreadable ? (
            <p className="text-xs text-zinc-500 italic">
              The file does not read as a graph: nothing to inspect until it is fixed.
            </p>
          ) : single?.startsWith('n:') ? (
            <NodeInspector key={single} id={single.slice(2)} />
          ) : single?.startsWith('c:') ? (
            <ContainerInspector key={single} id={single.slice(2)} />
          ) : single?.startsWith('e:') ? (
            <EdgeInspector key={single} id={single.slice(2)} />
          ) : (
            <GraphInspector />
          )}
        </Suspense>
      </div>
    </aside>
  );
}

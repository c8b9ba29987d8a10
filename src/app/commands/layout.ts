// Auto-layout through the server (POST /api/graphs/layout, elkjs): positions of nodes and
// containers come back; applying them is one undo step.
import type { OpResult } from '../../domain/graph/graph.ops.ts';
import type { Position } from '../../domain/graph/graph.schema.ts';
import { api } from '../api/client.ts';
import { currentLevel, editorStore, type EditorStore } from '../store/editor.store.ts';
import { formatGraphText } from '../store/graphIo.ts';

function positionsOf(raw: unknown, key: 'nodes' | 'containers'): Map<string, Position> {
  const out = new Map<string, Position>();
  const list = (raw as Record<string, unknown> | null)?.[key];
  if (!Array.isArray(list)) return out;
  for (const item of list as { id?: unknown; position?: { x?: unknown; y?: unknown } }[]) {
    if (
      typeof item.id === 'string' &&
      typeof item.position?.x === 'number' &&
      typeof item.position.y === 'number'
    ) {
      out.set(item.id, { x: Math.round(item.position.x), y: Math.round(item.position.y) });
    }
  }
  return out;
}

export async function autoLayout(store: EditorStore = editorStore): Promise<void> {
  const s = store.getState();
  const level = currentLevel(s);
  const dims: Record<string, { width: number; height: number }> = {};
  for (const el of document.querySelectorAll<HTMLElement>('.react-flow__node')) {
    const id = el.dataset.id;
    if (id) dims[id.startsWith('c:') ? id.slice(2) : id] = { width: el.offsetWidth, height: el.offsetHeight };
  }
  try {
    const raw = await api.layout(JSON.parse(formatGraphText(level)) as unknown, dims);
    const np = positionsOf(raw, 'nodes');
    const cp = positionsOf(raw, 'containers');
    const r = store.getState().edit((g): OpResult => ({
      ok: true,
      graph: {
        ...g,
        nodes: g.nodes.map((n) => (np.has(n.id) ? { ...n, position: np.get(n.id)! } : n)),
        containers: g.containers.map((c) => (cp.has(c.id) ? { ...c, position: cp.get(c.id)! } : c)),
      },
    }));
    if (r.ok) setTimeout(() => store.getState().requestFit(), 50);
  } catch (e) {
    s.showToast(`auto-layout failed: ${(e as Error).message}`, 'error');
  }
}

// User-level editor actions: each builds ids/defaults, then calls one pure operation through the
// store's `edit` (one undo step). Components call these instead of composing ops themselves.
import {
  addContainer,
  addLoopPair,
  addNodes,
  connect,
  moveElements,
  removeElements,
  updateContainer,
  type ConnectRequest,
  type OpResult,
} from '../../domain/graph/graph.ops.ts';
import type { ContainerDef, GraphDef, NodeDef, Position, StateDef } from '../../domain/graph/graph.schema.ts';
import { activeTab } from './doc.slice.ts';
import { currentLevel, editorStore, type EditorStore } from './editor.store.ts';
import { edgeId, freshId, grantId, usedIds } from './ids.ts';
import { viewCentre } from './viewCentre.ts';
import * as slots from './ops/slot.ops.ts';

const GRID = 20;
/** Drop positions snap to the 20 px grid when snapping is on (like drags do). */
function place(at: Position, store: EditorStore): Position {
  if (!store.getState().snapToGrid) return { x: Math.round(at.x), y: Math.round(at.y) };
  return { x: Math.round(at.x / GRID) * GRID, y: Math.round(at.y / GRID) * GRID };
}

/** Library pseudo-type for "State container". */
export const CONTAINER_ENTRY = '__container__';

export function addNodeOfType(
  type: string,
  at: Position,
  store: EditorStore = editorStore,
): OpResult & { ids?: string[] } {
  const s = store.getState();
  const level = currentLevel(s);
  const used = usedIds(level);
  if (type === CONTAINER_ENTRY) return addContainerAt(at, store);
  at = place(at, store);
  if (type === 'iterIn' || type === 'iterOut') {
    const inId = freshId('iterIn', used);
    const outId = freshId('iterOut', used);
    const start = type === 'iterIn' ? at : { x: at.x - 500, y: at.y };
    const r = s.edit((g) => addLoopPair(g, inId, outId, start));
    return r.ok ? { ...r, ids: [inId, outId] } : r;
  }
  const spec = s.catalog.get(type);
  const id = freshId(type, used);
  const node: NodeDef = {
    id,
    type,
    label: spec?.display_name ?? type,
    position: at,
    config: structuredClone(spec?.default_config ?? {}) as Record<string, unknown>,
  };
  const r = s.edit((g) => addNodes(g, [node]));
  return r.ok ? { ...r, ids: [id] } : r;
}

/**
 * A spot near `at` not already occupied by a node or container (checked on a coarse box), so
 * things added at the view centre by keyboard or palette do not pile up on each other.
 */
export function freeSpot(level: GraphDef, at: Position): Position {
  const taken = [...level.nodes.map((n) => n.position), ...level.containers.map((c) => c.position)];
  const p = { x: Math.round(at.x), y: Math.round(at.y) };
  for (let i = 0; i < 50 && taken.some((q) => Math.abs(q.x - p.x) < 180 && Math.abs(q.y - p.y) < 120); i++)
    p.y += 140;
  return p;
}

/** Adds at the centre of the view (palette, library double-click, shortcut), avoiding overlaps. */
export function addAtViewCentre(type: string, store: EditorStore = editorStore) {
  const s = store.getState();
  return addNodeOfType(type, freeSpot(currentLevel(s), viewCentre()), store);
}

export function addContainerAt(
  at: Position,
  store: EditorStore = editorStore,
): OpResult & { ids?: string[] } {
  const s = store.getState();
  const id = freshId('container', usedIds(currentLevel(s)));
  const r = s.edit((g) => addContainer(g, { id, label: 'State', position: place(at, store), states: {} }));
  return r.ok ? { ...r, ids: [id] } : r;
}

export function connectHandles(req: ConnectRequest, store: EditorStore = editorStore) {
  const s = store.getState();
  const level = currentLevel(s);
  const used = usedIds(level);
  const containerSide = level.containers.some((c) => c.id === req.source);
  const nodeId = containerSide ? req.target : req.source;
  const containerId = containerSide ? req.source : req.target;
  const ids = {
    edgeId: edgeId(used, req.source, req.sourceHandle ?? '', req.target, req.targetHandle ?? ''),
    grantId: grantId(used, nodeId, containerId),
  };
  let kind: 'edge' | 'grant' | undefined;
  const r = s.edit((g) => {
    const c = connect(g, req, ids, s.catalog);
    if (c.ok) kind = c.kind;
    return c;
  });
  return r.ok ? { ok: true as const, kind: kind! } : r;
}

export function deleteSelection(store: EditorStore = editorStore): OpResult {
  const s = store.getState();
  const sel = s.selection;
  if (!sel.nodes.length && !sel.containers.length && !sel.edges.length && !sel.grants.length)
    return { ok: false, reason: 'nothing selected' };
  const r = s.edit((g) => removeElements(g, sel));
  if (r.ok) s.clearSelection();
  return r;
}

export function commitMove(
  positions: ReadonlyMap<string, Position>,
  store: EditorStore = editorStore,
): OpResult {
  return store.getState().edit((g) => moveElements(g, positions));
}

/** Runs one slot edit on a container; a refusal comes back as its reason. */
export function editContainer(
  containerId: string,
  fn: (c: ContainerDef) => slots.SlotResult,
  store: EditorStore = editorStore,
): OpResult {
  return store.getState().edit((g) => updateContainer(g, containerId, fn));
}

export function addSlotTo(
  containerId: string,
  name: string,
  def?: StateDef,
  store: EditorStore = editorStore,
): OpResult {
  return editContainer(containerId, (c) => slots.addSlot(c, name, def), store);
}

export function nextSlotName(existing: readonly string[]): string {
  for (let i = 1; ; i++) {
    const n = `slot_${i}`;
    if (!existing.includes(n)) return n;
  }
}

export function isDirtyTab(tabId: string, store: EditorStore = editorStore): boolean {
  return store.getState().tabs.find((t) => t.id === tabId)?.dirty ?? false;
}

export function activeTabOf(store: EditorStore = editorStore) {
  return activeTab(store.getState());
}

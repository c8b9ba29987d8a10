// Selections made in the far view, as React Flow makes them on DOM nodes: a click selects the item
// alone (a multi-selection key toggles it instead); dragging an unselected item selects it first; a
// box selects every item it touches (SelectionMode.Partial) and every edge at them, replacing the
// selection.
import type { SelectionIds } from '../../store/ui.slice.ts';
import { flowIdsOfSelection, selectionFromFlowIds } from '../selectionSync.ts';
import type { FarScene } from './farScene.ts';

const isEdgeId = (f: string) => f.startsWith('e:') || f.startsWith('g:');

/** After a click on the item `flowId`. */
export function clickSelection(current: SelectionIds, flowId: string, multi: boolean): SelectionIds {
  if (!multi) return selectionFromFlowIds([flowId], []);
  const ids = flowIdsOfSelection(current);
  if (ids.has(flowId)) ids.delete(flowId);
  else ids.add(flowId);
  const all = [...ids];
  return selectionFromFlowIds(
    all.filter((f) => !isEdgeId(f)),
    all.filter(isEdgeId),
  );
}

/** When a drag starts on `flowId`: a selected item drags the whole selection, another one is selected first. */
export function dragSelection(current: SelectionIds, flowId: string, multi: boolean): SelectionIds {
  const ids = flowIdsOfSelection(current);
  if (ids.has(flowId)) return current;
  return multi ? clickSelection(current, flowId, true) : selectionFromFlowIds([flowId], []);
}

/** The items with these indices and every edge and grant at them. */
export function boxSelection(scene: FarScene, items: readonly number[]): SelectionIds {
  const edges = new Set<string>();
  for (const i of items) for (const e of scene.edgesAt[i] ?? []) edges.add(scene.edges[e]!.flowId);
  return selectionFromFlowIds(
    items.map((i) => scene.items[i]!.flowId),
    edges,
  );
}

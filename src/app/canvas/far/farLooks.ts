// What each far-view item shows besides its geometry, read from the editor store: its label, its
// type's colour, its issue mark, whether it is a composite. Computed for every item when the level,
// the catalog or the issues change (the flow nodes the scene is built from do not change on a rename).
import { GRAPH_STATE_ID } from '../../../domain/graph/graph.schema.ts';
import { issueMark } from '../../store/derived.ts';
import { currentLevel, indexOf, type EditorState } from '../../store/editor.store.ts';
import type { FarLook } from './farDraw.ts';
import type { FarItem } from './farScene.ts';

/** A container's title, as ContainerNode.tsx shows it. */
export function containerLabel(id: string, label: string | undefined): string {
  return label || (id === GRAPH_STATE_ID ? 'Graph State' : 'State Container');
}

export function farLooks(items: readonly FarItem[], s: EditorState): FarLook[] {
  const idx = indexOf(currentLevel(s));
  return items.map((it) => {
    if (it.kind === 'container') {
      const c = idx.containers.get(it.defId);
      return {
        label: containerLabel(it.defId, c?.label),
        color: undefined,
        mark: issueMark(s, it.defId),
        composite: false,
      };
    }
    const n = idx.nodes.get(it.defId);
    return {
      label: n ? n.label || n.id : it.defId,
      color: n ? s.catalog.get(n.type)?.ui_config.color : undefined,
      mark: issueMark(s, it.defId),
      composite: Boolean(n?.subgraph && n.subgraph.nodes.length),
    };
  });
}

// What each far-view item shows besides its geometry, read from the editor store: its label, its
// type's colour, its issue mark, whether it is a composite. Computed for every item when the level,
// the catalog or the issues change (the flow nodes the scene is built from do not change on a rename).
import { issueMark } from '../../store/derived.ts';
import { currentLevel, indexOf, type EditorState } from '../../store/editor.store.ts';
import { containerLabel } from '../containerBox.ts';
import type { FarLook } from './farTypes.ts';
import type { FarItem } from './farScene.ts';

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

// The Compare view as flat rows for one virtualized list: container headers, their slots (all, or
// only changed ones), and under an expanded slot its metadata changes, its structural diff lines
// and its keyed partitions (each expandable to its own lines). Pure.
import type { ContainerDiff, DiffLine, KeyDiff, SlotDiff } from '../../domain/debug/stateDiff.ts';

export type CompareRow =
  | { type: 'container'; id: string; diff: ContainerDiff }
  | { type: 'slot'; id: string; container: string; diff: SlotDiff }
  | { type: 'key'; id: string; container: string; slot: string; diff: KeyDiff; depth: number }
  | { type: 'meta'; id: string; text: string; depth: number }
  | { type: 'line'; id: string; line: DiffLine; depth: number }
  | { type: 'section'; id: string; text: string };

export const slotRowId = (container: string, slot: string) => `${container}/${slot}`;
export const NODE_SECTION = '(node state)';

function lineRows(parent: string, lines: readonly DiffLine[], depth: number): CompareRow[] {
  return lines.map((line, i) => ({ type: 'line', id: `${parent}#${i}`, line, depth }));
}

function keyRows(
  container: string,
  slot: string,
  keys: readonly KeyDiff[],
  expanded: ReadonlySet<string>,
  changedOnly: boolean,
  depth: number,
): CompareRow[] {
  const out: CompareRow[] = [];
  for (const k of keys) {
    if (changedOnly && k.status === 'same') continue;
    const id = `${slotRowId(container, slot)}/${k.key}`;
    out.push({ type: 'key', id, container, slot, diff: k, depth });
    if (expanded.has(id)) out.push(...lineRows(id, k.lines, depth + 1));
  }
  return out;
}

export function compareRows(
  containers: readonly ContainerDiff[],
  nodes: readonly KeyDiff[],
  expanded: ReadonlySet<string>,
  changedOnly: boolean,
): CompareRow[] {
  const out: CompareRow[] = [];
  for (const c of containers) {
    if (changedOnly && c.status === 'same') continue;
    out.push({ type: 'container', id: c.id, diff: c });
    for (const s of c.slots) {
      if (changedOnly && s.status === 'same') continue;
      const id = slotRowId(c.id, s.slot);
      out.push({ type: 'slot', id, container: c.id, diff: s });
      if (!expanded.has(id)) continue;
      out.push(...s.meta.map((text, i): CompareRow => ({ type: 'meta', id: `${id}!${i}`, text, depth: 1 })));
      out.push(...lineRows(id, s.lines, 1));
      out.push(...keyRows(c.id, s.slot, s.keys, expanded, changedOnly, 1));
    }
  }
  const shownNodes = nodes.filter((n) => !changedOnly || n.status !== 'same');
  if (shownNodes.length > 0) {
    out.push({ type: 'section', id: NODE_SECTION, text: 'node-local state' });
    out.push(...keyRows(NODE_SECTION, '', shownNodes, expanded, false, 0));
  }
  return out;
}

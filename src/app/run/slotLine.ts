// The one-line live value of a slot (docs/reference-system.md §3.8, §5.4): `N items` when the snapshot
// has a size, else the value, else the preview (first 60 chars); keyed slots say how many keys.
import type { SlotSnapshot } from '../../domain/protocol/protocol.ts';
import { ndInfoOf, ndText } from '../ui/ndarray.ts';

export const LINE_MAX = 60;

function short(text: string): string {
  return text.length > LINE_MAX ? `${text.slice(0, LINE_MAX - 1)}…` : text;
}

export function formatValue(v: unknown): string {
  if (typeof v === 'string') return short(JSON.stringify(v));
  // An array summary reads as `uint8 [64×64×3]`, not as its JSON (which carries a PNG).
  const nd = ndInfoOf(v);
  if (nd) return short(ndText(nd));
  if (v === undefined) return '';
  try {
    return short(JSON.stringify(v) ?? String(v));
  } catch {
    return short(String(v));
  }
}

export function slotLine(s: SlotSnapshot | undefined): string | null {
  if (!s) return null;
  const keyed = s.keys !== undefined ? `${s.keys} key${s.keys === 1 ? '' : 's'} · ` : '';
  if (s.size !== undefined) return `${keyed}${s.size} item${s.size === 1 ? '' : 's'}`;
  if (s.value !== undefined) return `${keyed}${formatValue(s.value)}`;
  if (s.preview !== undefined) return `${keyed}${short(s.preview)}`;
  return keyed ? keyed.slice(0, -3) : null;
}

// One short line of text for a viewer node's latest viewer_data, shown inside the node on the
// canvas. Viewers send whatever arrived on their inputs; accumulating ones (textScroll, actionLog,
// trajectoryViewer) send their whole history, of which only the newest entry is shown. The line is
// computed once per event in the live handler so a canvas node only compares a short string.

import { firstNdInfo, ndInfoOf, ndText } from '../ui/ndarray.ts';

export const VIEWER_LINE_MAX = 80;

/** Image payloads (data URLs, base64) are not text worth reading on a node. */
function looksLikeImage(s: string): boolean {
  return s.startsWith('data:image/') || (s.length > 200 && /^[A-Za-z0-9+/]+$/.test(s.slice(0, 200)));
}

function shortValue(v: unknown, depth = 0): string {
  if (v === null || v === undefined) return String(v);
  if (typeof v === 'string') return looksLikeImage(v) ? '[image]' : v;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(4)));
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return depth === 0 ? shortValue(v[v.length - 1], depth + 1) : `[${v.length}]`;
  }
  if (typeof v === 'object') {
    // Arrays from node services arrive summarized (`$ndarray`): their dtype and shape, not the JSON.
    const nd = ndInfoOf(v);
    if (nd) return ndText(nd);
    if (depth > 1) return '{…}';
    const parts = Object.entries(v as Record<string, unknown>)
      .slice(0, 6)
      .map(([k, x]) => `${k}: ${shortValue(x, depth + 1)}`);
    return `{${parts.join(', ')}}`;
  }
  return String(v);
}

/** `fields` of one viewer_data → a single line: one field shows its value, several show `name: value`. */
export function viewerLine(fields: Record<string, unknown>): string {
  const entries = Object.entries(fields);
  const raw =
    entries.length === 0
      ? '(nothing)'
      : entries.length === 1
        ? shortValue(entries[0]?.[1])
        : entries.map(([k, v]) => `${k}: ${shortValue(v)}`).join(' · ');
  const line = raw.replace(/\s+/g, ' ').trim();
  return line.length > VIEWER_LINE_MAX ? `${line.slice(0, VIEWER_LINE_MAX - 1)}…` : line;
}

/**
 * The picture a viewer shows: the first field holding an array summary with a PNG (for accumulating
 * viewers, the newest entry of that field's history). Kept as the raw summary for NdArrayView.
 */
export function viewerPicture(fields: Record<string, unknown>): unknown {
  for (const v of Object.values(fields)) {
    const info = firstNdInfo(v);
    if (info?.png) return Array.isArray(v) ? v[v.length - 1] : v;
  }
  return undefined;
}

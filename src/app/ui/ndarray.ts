// Text and sizing for array values as they reach the browser: `NdArraySummary` (`{$ndarray: {dtype,
// shape, min, max, head, kind, png?}}`, made by the server from node-service arrays). Pure, so the
// one-line texts (viewer lines, slot lines) and the picture view (NdArrayView) agree.
import { isNdArraySummary, type NdArraySummary } from '../../domain/services/ndarray.ts';

export type NdInfo = NdArraySummary['$ndarray'];

/** A summary as it arrived over JSON: checked field by field (the socket is a boundary). */
export function ndInfoOf(v: unknown): NdInfo | null {
  if (!isNdArraySummary(v)) return null;
  const i = (v as { $ndarray: unknown }).$ndarray as Partial<NdInfo> | null;
  if (typeof i !== 'object' || i === null) return null;
  if (typeof i.dtype !== 'string' || !Array.isArray(i.shape)) return null;
  return {
    dtype: i.dtype,
    shape: i.shape.filter((d): d is number => typeof d === 'number'),
    min: typeof i.min === 'number' ? i.min : null,
    max: typeof i.max === 'number' ? i.max : null,
    head: Array.isArray(i.head) ? i.head.filter((x): x is number => typeof x === 'number') : [],
    kind: i.kind === 'image' || i.kind === 'depth' ? i.kind : 'array',
    // Only a PNG data URL is ever put in an <img src> (never another scheme from a service).
    ...(typeof i.png === 'string' && i.png.startsWith('data:image/png;base64,') ? { png: i.png } : {}),
  };
}

/** Numbers short enough for a caption: integers as is, others to 4 significant digits. */
export function formatNum(x: number | null): string {
  if (x === null) return '—';
  if (Number.isInteger(x)) return String(x);
  return String(Number(x.toPrecision(4)));
}

/** `uint8 [64×64×3]` */
export function ndCaption(i: NdInfo): string {
  return `${i.dtype} [${i.shape.join('×')}]`;
}

/** `min 0.5 · max 3.25` (depth maps: what black and white stand for). */
export function ndRange(i: NdInfo): string {
  return `min ${formatNum(i.min)} · max ${formatNum(i.max)}`;
}

/** `[1, 2, 3, …]`: the first values, with an ellipsis when the array holds more. */
export function ndHead(i: NdInfo): string {
  const n = i.shape.reduce((a, b) => a * b, 1);
  const more = n > i.head.length ? ', …' : '';
  return `[${i.head.map(formatNum).join(', ')}${more}]`;
}

/** One line for text places (viewer line, slot line): caption, range for depth, head for plain arrays. */
export function ndText(i: NdInfo): string {
  if (i.kind === 'depth') return `${ndCaption(i)} ${ndRange(i)}`;
  if (i.kind === 'image') return ndCaption(i);
  return `${ndCaption(i)} ${ndHead(i)}`;
}

/**
 * Display size of an h×w picture inside a `box`×`box` square: small pictures scale up by a whole
 * factor (crisp pixels, `pixelated`), large ones scale down to fit.
 */
export function pictureSize(
  h: number,
  w: number,
  box: number,
): { width: number; height: number; pixelated: boolean } {
  if (h <= 0 || w <= 0) return { width: box, height: box, pixelated: false };
  const fit = Math.min(box / w, box / h);
  if (fit >= 2) {
    const k = Math.floor(fit);
    return { width: w * k, height: h * k, pixelated: true };
  }
  const k = Math.min(1, fit);
  return { width: Math.max(1, Math.round(w * k)), height: Math.max(1, Math.round(h * k)), pixelated: false };
}

/** The first array summary in a value (top level, or the newest entry of a list), for pictures. */
export function firstNdInfo(v: unknown): NdInfo | null {
  const direct = ndInfoOf(v);
  if (direct) return direct;
  if (Array.isArray(v) && v.length) return ndInfoOf(v[v.length - 1]);
  return null;
}

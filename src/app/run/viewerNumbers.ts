// The numeric fields of one viewer_data payload, flattened one level (`reward`, `metrics.reward`),
// kept with the viewer's line so the episode plot can draw a Metrics viewer over steps.

/** At most this many numbers per payload (a wide table is not a plot). */
export const VIEWER_NUMBERS_MAX = 24;

export function viewerNumbers(fields: Record<string, unknown>): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  let n = 0;
  const put = (k: string, v: unknown) => {
    if (n >= VIEWER_NUMBERS_MAX || typeof v !== 'number' || !Number.isFinite(v)) return;
    out[k] = v;
    n++;
  };
  for (const [k, v] of Object.entries(fields)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v))
      for (const [k2, v2] of Object.entries(v as Record<string, unknown>)) put(`${k}.${k2}`, v2);
    else put(k, v);
  }
  return n > 0 ? out : undefined;
}

// Viewer sinks: each fire emits `viewer_data {node_id, step, fields}` with what arrived (docs/reference-system.md §4.2).
import type { NodeHandler } from '../handler.types.ts';

export const VIEWER_TYPES = [
  'imageViewer',
  'textViewer',
  'textScroll',
  'actionLog',
  'metrics',
  'trajectoryViewer',
  'pointCloudViewer',
] as const;

/** Accumulating viewers send their whole history (kept in node-local state, bounded). */
const ACCUMULATING = new Set(['textScroll', 'actionLog', 'trajectoryViewer']);
const MAX_HISTORY = 200;

export function viewerHandler(type: string): NodeHandler {
  if (!ACCUMULATING.has(type)) {
    return {
      fire(inputs, ctx) {
        ctx.emitViewer({ ...inputs });
        return { outputs: {} };
      },
    };
  }
  return {
    initState: () => ({}),
    fire(inputs, ctx) {
      const prev = ctx.state as Readonly<Record<string, readonly unknown[]>>;
      const next: Record<string, readonly unknown[]> = { ...prev };
      for (const [k, v] of Object.entries(inputs)) next[k] = [...(prev[k] ?? []), v].slice(-MAX_HISTORY);
      ctx.emitViewer(next);
      return { outputs: {}, state: next };
    },
  };
}

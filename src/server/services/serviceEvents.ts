// Where node services meet the event stream (the engine's sink, wrapped by the host):
// - arrays become `NdArraySummary`s with a PNG picture for image-like ones (the log and the socket
//   carry JSON; a client needs a look at an array, not its megabytes — checkpoints keep the bytes);
// - each nav_step gets the service-owned container previews of THIS run's calls (`owner` = service
//   name; servicePreviews.ts);
// - `episode_reset` evicts that episode's key in every service that owns containers;
// - the run is known to the manager while it lives, so events a service pushes find it.
// A graph without service node types gets the engine's sink back unchanged (no cost).
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { EngineEvent, RunResultData } from '../../domain/protocol/protocol.ts';
import { nodesetOfType } from '../../domain/services/manifest.ts';
import {
  containsNdArray,
  elementAt,
  elementCount,
  mapNdArrays,
  summarizeNdArray,
  type NdArray,
} from '../../domain/services/ndarray.ts';
import type { EventSink } from '../../engine/run.api.ts';
import { encodePng } from './png.ts';
import type { ServiceManager } from './serviceManager.ts';
import { resultValues } from './servicePreviews.ts';

const MAX_PICTURE_PIXELS = 2_000_000;

/** The summary of an array with a PNG data URL when it is a picture (image as is, depth scaled). */
export function summarizeForWire(a: NdArray): unknown {
  const s = summarizeNdArray(a);
  const info = s.$ndarray;
  const [h = 0, w = 0, c = 1] = a.shape;
  if (info.kind === 'array' || h * w > MAX_PICTURE_PIXELS) return s;
  let png: Buffer;
  if (info.kind === 'image') png = encodePng(w, h, c, a.data);
  else {
    // Depth: min → black, max → white; non-finite pixels black.
    const n = elementCount(a.shape);
    const gray = new Uint8Array(n);
    const lo = info.min ?? 0;
    const span = (info.max ?? 0) - lo || 1;
    for (let i = 0; i < n; i++) {
      const x = elementAt(a, i);
      gray[i] = Number.isFinite(x) ? Math.round(((x - lo) / span) * 255) : 0;
    }
    png = encodePng(w, h, 1, gray);
  }
  info.png = `data:image/png;base64,${png.toString('base64')}`;
  return s;
}

/** Does the graph (or its composites) use a node type of a configured service? */
export function usesServices(graph: GraphDef, services: ServiceManager): boolean {
  const names = new Set(services.report().services.map((s) => s.name));
  const visit = (g: GraphDef): boolean =>
    g.nodes.some((n) => {
      const ns = nodesetOfType(n.type);
      return (ns !== null && names.has(ns)) || (n.subgraph ? visit(n.subgraph as GraphDef) : false);
    });
  return names.size > 0 && visit(graph);
}

/**
 * Key a service evicts at `episode_reset`: the payload itself when it is a string or number (an
 * emitSignal fed the ended episode's id), else its `key`, else its `episode`.
 */
export function episodeKey(payload: unknown): string | null {
  if (typeof payload === 'string' || (typeof payload === 'number' && Number.isFinite(payload)))
    return String(payload);
  if (typeof payload !== 'object' || payload === null) return null;
  const p = payload as Record<string, unknown>;
  const k = p.key ?? p.episode;
  return typeof k === 'string' || typeof k === 'number' ? String(k) : null;
}

/** Every node of a graph, composites included (flattening happens later, in the engine). */
export function allNodes(graph: GraphDef): { id: string; type: string }[] {
  return graph.nodes.flatMap((n) => [n, ...(n.subgraph ? allNodes(n.subgraph as GraphDef) : [])]);
}

const ENDED = new Set(['done', 'error', 'stopped']);

export function wrapSinkForServices(
  sink: EventSink,
  graph: GraphDef,
  services: ServiceManager,
  runId: string,
  onEvictError: (message: string) => void = () => undefined,
): EventSink {
  if (!usesServices(graph, services)) return sink;
  let step = 0;
  const untrack = services.trackRun({
    runId,
    step: () => step,
    emit: (e) => wrapped({ type: 'error_event', data: e }),
  });
  const wrapped: EventSink = (event) => {
    let data = event.data as unknown;
    if (event.type === 'signal') {
      const d = data as { signal?: string; payload?: unknown };
      const key = d.signal === 'episode_reset' ? episodeKey(d.payload) : null;
      if (key !== null && services.hasOwnedContainers())
        void services.evict(key, runId).then((errs) => errs.forEach(onEvictError));
    }
    if (event.type === 'nav_step') {
      step = (data as { step?: number }).step ?? step;
      const owned = services.ownedPreviews(runId);
      if (Object.keys(owned).length) {
        const d = data as { containers?: Record<string, unknown> };
        data = { ...d, containers: { ...owned, ...(d.containers ?? {}) } };
      }
    }
    if (
      event.type === 'run_result' ||
      event.type === 'nav_complete' ||
      (event.type === 'nav_status' && ENDED.has((data as { status?: string }).status ?? ''))
    )
      untrack();
    if (containsNdArray(data)) data = mapNdArrays(data, summarizeForWire);
    sink(data === event.data ? event : ({ type: event.type, data } as EngineEvent));
  };
  return wrapped;
}

/** A run_result's containers plus the service-owned containers run `runId`'s calls saw. */
export function withServiceContainers<R extends { containers: Record<string, Record<string, unknown>> }>(
  result: R,
  services: ServiceManager,
  runId: string,
): R {
  const owned = resultValues(services.ownedPreviews(runId));
  return Object.keys(owned).length ? { ...result, containers: { ...owned, ...result.containers } } : result;
}

/**
 * The run with `result()` in wire form (arrays as summaries) and with the service-owned containers
 * its calls saw, for hosts that log it directly.
 */
export function withWireResult<R extends { result(...args: never[]): RunResultData }>(
  run: R,
  services: ServiceManager,
  runId: string,
): R {
  return new Proxy(run, {
    get(target, key) {
      const v = Reflect.get(target, key, target) as unknown;
      if (key === 'result')
        return (...args: never[]) =>
          withServiceContainers(
            mapNdArrays(target.result(...args), summarizeForWire) as RunResultData,
            services,
            runId,
          );
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

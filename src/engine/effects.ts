// Recorded external calls (repeatable intent, docs/architecture.md "Run state and durability") — the one mechanism behind an LLM call and a
// node-service call alike. A node's `ctx.effect(request, perform)`:
//   1. derives the call's idempotency key from where it happens: `lineage:step[.scopeStep]:node:n:hash`
//      (n counts the node's calls within one fire; hash is of the request, so a fork whose node
//      config or inputs changed never reuses its parent's answer);
//   2. asks the store for a recorded answer (a resumed, restored or forked run, or a replay), then,
//      for a fork's first run, for its parent's answer while the fork's calls are the parent's
//      (`reuse`, effectReuse.ts: recorded again as the fork's own, marked reused);
//   3. otherwise commits the intent (key + request) BEFORE calling, then calls `perform(key)` — the
//      key goes out with the call (a service gets it as `_exec.call_id`), so after a crash between the
//      call and the step commit the resumed run re-sends the same key, never a fresh one;
//   4. records the answer with its duration (the store keeps the whole call, content-addressed; run
//      bundles carry it and `statewire replay` answers from it) and emits a small `effect` event.
import type { EngineEvent } from '../domain/protocol/protocol.ts';
import { hashString } from './prng.ts';

/** Where and what a call is: what a store needs to find, explain or record it. */
export interface EffectCall {
  key: string;
  step: number;
  node_id: string;
  /** The call's ordinal within the node's fire (0 for the first). */
  index: number;
  /** `service` or `llm`: which kind of external call (the request tells the rest). */
  kind: string;
  request: unknown;
}

/** Where a reused answer came from (a fork's call answered from its parent's, effectReuse.ts). */
export interface ReusedFrom {
  run_id: string;
  key: string;
}

/**
 * Recorded external effects, stored durably by the host. `lookup` may throw: a replay store refuses
 * a call it has no answer for, naming what differs, and the node fails with that message.
 */
export interface EffectStore {
  lookup(key: string, call?: EffectCall): unknown | undefined;
  /** The intent of a call, committed before it is made (optional: a store without resume needs none). */
  intend?(call: EffectCall): void;
  record(key: string, request: unknown, response: unknown, call?: EffectCall & { ms: number }): void;
  /**
   * Another run's recorded answer to this same call (a fork reusing its parent's, effectReuse.ts),
   * already recorded as this run's own, or undefined: the call is made live.
   */
  reuse?(call: EffectCall): { response: unknown; from: ReusedFrom } | undefined;
}

export interface EffectHost {
  readonly lineage: string;
  readonly options: { effects?: EffectStore; freshEffects?: boolean };
  emit(event: EngineEvent): void;
  now(): number;
}

export type Effect = <T>(request: unknown, perform: (key: string) => Promise<T>, kind?: string) => Promise<T>;

/** The idempotency key of a node's `index`-th call in a fire (stable across crash, resume, restore, fork). */
export function effectKey(
  lineage: string,
  step: number,
  scopeStep: number | undefined,
  nodeId: string,
  index: number,
  request: unknown,
): string {
  const at = scopeStep === undefined ? `${step}` : `${step}.${scopeStep}`;
  return `${lineage}:${at}:${nodeId}:${index}:${hashString(keyText(request))}`;
}

/**
 * JSON with sorted keys, an array's bytes (a node-service image) as their own hash: a megapixel
 * input costs one pass over its bytes, not a string of a million numbers.
 */
function keyText(value: unknown): string {
  if (value === undefined) return 'null';
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (ArrayBuffer.isView(value)) {
    const b = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    let h1 = 0x811c9dc5;
    let h2 = 0xcbf29ce4;
    for (let i = 0; i < b.length; i++) {
      h1 = Math.imul(h1 ^ b[i]!, 0x01000193) >>> 0;
      h2 = Math.imul(h2 ^ b[i]! ^ (h1 >>> 7), 0x01000193) >>> 0;
    }
    return `"#bytes ${b.length} ${h1.toString(16)}${h2.toString(16)}"`;
  }
  if (Array.isArray(value)) return `[${value.map(keyText).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${keyText((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/**
 * The `effect` function of one fire. `scopeStep` is the iteration of the node's own loop scope when
 * it sits in one below the root (a node fires once per iteration), else undefined.
 */
export function makeEffect(host: EffectHost, step: number, nodeId: string, scopeStep?: number): Effect {
  let index = 0;
  return async <T>(request: unknown, perform: (key: string) => Promise<T>, kind = 'llm'): Promise<T> => {
    const n = index++;
    const key = effectKey(host.lineage, step, scopeStep, nodeId, n, request);
    const call: EffectCall = { key, step, node_id: nodeId, index: n, kind, request };
    const store = host.options.effects;
    if (store && !host.options.freshEffects) {
      const hit = store.lookup(key, call);
      if (hit !== undefined) {
        host.emit({ type: 'effect', data: { node_id: nodeId, step, key, mode: 'replayed' } });
        return hit as T;
      }
      const reused = store.reuse?.(call);
      if (reused) {
        host.emit({
          type: 'effect',
          data: { node_id: nodeId, step, key, mode: 'reused', from: reused.from },
        });
        return reused.response as T;
      }
    }
    store?.intend?.(call);
    const t0 = host.now();
    const response = await perform(key);
    const ms = Math.max(0, host.now() - t0);
    if (store) {
      store.record(key, request, response, { ...call, ms });
      host.emit({ type: 'effect', data: { node_id: nodeId, step, key, mode: 'recorded' } });
    }
    return response;
  };
}

// What a node-service call leaves in the run's record (engine/effects.ts, db/effectStore.ts): the
// request (service, function, inputs, config — not `_exec`, whose executor URL changes from one
// server start to the next), the answer, and the container writes the service made through the
// executor endpoints while the call was in flight, in order. A replayed call (a resumed run, or
// `statewire replay` with the services stopped) takes the answer from the record and applies the
// same writes to the node's containers, so the state it leaves is the state the call left. The
// record also keeps the function's manifest entry: with the service stopped, a replay still knows
// the node type's ports and config (services/recordedTypes.ts).
import type { ServiceFunction } from '../../domain/services/manifest.ts';
import type { ContainerHandle, NodeContext } from '../../engine/handler.types.ts';
import type { CallAnswer } from './serviceClient.ts';

export interface ServiceCallRequest {
  service: string;
  fn: string;
  inputs: Record<string, unknown>;
  config: Record<string, unknown>;
}

/** A container change made by the service through the executor endpoints during the call. */
export type ContainerWrite =
  | { container: string; op: 'write'; slot: string; value: unknown; key?: string }
  | { container: string; op: 'evict'; key: string };

export interface ServiceCallRecord {
  answer: CallAnswer;
  writes: ContainerWrite[];
  /** The function as the service's manifest declared it at the call (absent in older records). */
  fn?: ServiceFunction;
}

/**
 * The node's context as the executor endpoints see it during the call: the same granted
 * containers, every write and evict also appended to `writes`. (Reads are not recorded: what
 * they returned is already reflected in the answer.)
 */
export function recordingContext(ctx: NodeContext, writes: ContainerWrite[]): NodeContext {
  const containers: Record<string, ContainerHandle> = {};
  for (const cid of Object.keys(ctx.containers)) {
    const h = ctx.containers[cid]!;
    containers[cid] = {
      id: h.id,
      read: (slot, key) => h.read(slot, key),
      write: (slot, value, key) => {
        const out = h.write(slot, value, key);
        writes.push({ container: cid, op: 'write', slot, value, ...(key !== undefined ? { key } : {}) });
        return out;
      },
      evict: (key) => {
        const out = h.evict(key);
        writes.push({ container: cid, op: 'evict', key });
        return out;
      },
      slots: () => h.slots(),
    };
  }
  return { ...ctx, containers };
}

/** Applies a recorded call's container writes again, in order (a replayed call). */
export function applyRecordedWrites(ctx: NodeContext, writes: readonly ContainerWrite[]): void {
  for (const w of writes) {
    if (!Object.hasOwn(ctx.containers, w.container))
      throw new Error(
        `recorded call wrote container '${w.container}', which is not granted to node '${ctx.node.id}' now`,
      );
    const h = ctx.containers[w.container]!;
    if (w.op === 'evict') h.evict(w.key);
    else h.write(w.slot, w.value, w.key);
  }
}

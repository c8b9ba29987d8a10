// Dynamic fire-lists (docs/reference-system.md §3.12): a spawner returns `fireList {specs, aggregator?}` and each
// spec fires sequentially as an ephemeral child `<spawner>::dyn<i>` that inherits the spawner's grants
// (GrantIndex.forNode resolves the spawner id). The aggregate of the children's outputs wins over the
// spawner's own outputs.

export interface FireSpec {
  node_type: string;
  inputs?: Record<string, unknown>;
  config?: Record<string, unknown>;
  label?: string;
  /** Whitelist of child output names kept for aggregation. */
  capture_outputs?: string[];
}

export type Aggregator =
  | { kind: 'passthrough_last' }
  | { kind: 'passthrough_index'; index: number }
  | { kind: 'merge_all' }
  | { kind: 'rename'; map: Record<string, string>; inner?: Aggregator };

export interface FireList {
  specs: FireSpec[];
  aggregator?: Aggregator;
}

export const FORBIDDEN_CHILD_TYPES = new Set(['iterIn', 'iterOut', 'graphIn', 'graphOut']);

export function isFireList(v: unknown): v is FireList {
  return typeof v === 'object' && v !== null && Array.isArray((v as { specs?: unknown }).specs);
}

export function childId(spawner: string, index: number): string {
  return `${spawner}::dyn${index}`;
}

/** Folds the children's outputs (in fire order) into one result. */
export function aggregate(
  outputs: readonly Record<string, unknown>[],
  agg: Aggregator = { kind: 'passthrough_last' },
): Record<string, unknown> {
  switch (agg.kind) {
    case 'passthrough_last':
      return outputs.at(-1) ?? {};
    case 'passthrough_index': {
      const o = outputs[agg.index];
      if (!o)
        throw new Error(
          `aggregator passthrough_index: no child at index ${agg.index} (${outputs.length} children)`,
        );
      return o;
    }
    case 'merge_all':
      return Object.assign({}, ...outputs) as Record<string, unknown>;
    case 'rename': {
      const inner = aggregate(outputs, agg.inner);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(inner)) out[agg.map[k] ?? k] = v;
      return out;
    }
    default:
      throw new Error(`unknown aggregator kind '${(agg as { kind?: unknown }).kind as string}'`);
  }
}

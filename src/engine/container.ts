// A live state container (docs/reference-system.md §3.8): named slots folded by reducers, keyed
// partitions, evict, signal fan-out. Its whole state is one immutable value (`ContainerState`) that is
// replaced on every write, so a checkpoint is just a reference and unchanged slots are shared.
import type { StateConfig } from '../domain/graph/graph.schema.ts';
import type { ClearedRef } from '../domain/protocol/protocol.ts';
import { initialValue, reduce } from '../domain/state/reducers.ts';
import { SlotError } from './errors.ts';
import { deepFreeze } from './freeze.ts';

export interface SlotSpec {
  name: string;
  /** Reducer as declared (kept for display); `reducer` is what actually folds (unknown → lastWrite). */
  type: string;
  reducer: string;
  value_type: string;
  lifetime: string;
  config: StateConfig;
  resetOn: readonly string[];
}

export interface ContainerState {
  readonly values: Readonly<Record<string, unknown>>;
  /** slot → key → value; a key appears once written (lazily cloned from the template's initial value). */
  readonly keyed: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** Signals that are scoped: a container only honours them when they come from its own loop scope. */
const SCOPED_SIGNALS = new Set(['step_start', 'step_end']);

export class StateContainer {
  private current: ContainerState;
  private readonly byName: ReadonlyMap<string, SlotSpec>;

  constructor(
    readonly id: string,
    readonly label: string,
    readonly slots: readonly SlotSpec[],
    /** Loop scope whose step signals clear this container's step slots ("" = graph scope). */
    readonly scope: string = '',
    readonly owner = 'home',
  ) {
    this.byName = new Map(slots.map((s) => [s.name, s]));
    const values: Record<string, unknown> = {};
    for (const s of slots) values[s.name] = this.fresh(s);
    this.current = deepFreeze({ values, keyed: {} });
  }

  get state(): ContainerState {
    return this.current;
  }

  slot(name: string, action: 'read' | 'write' = 'read'): SlotSpec {
    const spec = this.byName.get(name);
    if (!spec) {
      const declared = [...this.byName.keys()];
      throw new SlotError(
        `container '${this.id}': ${action} of undeclared slot '${name}' (declared slots: ${declared.join(', ') || 'none'}); add it to the container's states`,
      );
    }
    return spec;
  }

  /** A deep copy of the initial value, frozen; never aliased between slots, keys or clears. */
  private fresh(spec: SlotSpec): unknown {
    return deepFreeze(initialValue(spec.reducer, spec.config));
  }

  read(name: string, key?: string): unknown {
    const spec = this.slot(name, 'read');
    if (key === undefined) return this.current.values[name];
    const part = this.current.keyed[name];
    return part && Object.hasOwn(part, key) ? part[key] : this.fresh(spec);
  }

  /** Folds `update` into the slot; returns the value before and after (both frozen). */
  write(name: string, update: unknown, key?: string): { before: unknown; after: unknown } {
    const spec = this.slot(name, 'write');
    const before = this.read(name, key);
    let after: unknown;
    try {
      after = deepFreeze(reduce(spec.reducer, before, deepFreeze(update), spec.config));
    } catch (e) {
      throw new SlotError(`container '${this.id}' slot '${name}': ${(e as Error).message}`);
    }
    if (key === undefined) {
      this.current = { values: { ...this.current.values, [name]: after }, keyed: this.current.keyed };
    } else {
      const part = { ...(this.current.keyed[name] ?? {}), [key]: after };
      this.current = { values: this.current.values, keyed: { ...this.current.keyed, [name]: part } };
    }
    Object.freeze(this.current);
    return { before, after };
  }

  /** Drops every keyed partition for `key` (siblings untouched). */
  evict(key: string): ClearedRef[] {
    const removed: ClearedRef[] = [];
    const keyed: Record<string, Readonly<Record<string, unknown>>> = {};
    for (const [slot, part] of Object.entries(this.current.keyed)) {
      if (Object.hasOwn(part, key)) {
        const rest = { ...part };
        delete rest[key];
        keyed[slot] = rest;
        removed.push({ container: this.id, slot, key });
      } else keyed[slot] = part;
    }
    if (removed.length > 0) this.current = deepFreeze({ values: this.current.values, keyed });
    return removed;
  }

  /** Resets every slot (and drops keyed partitions). */
  clear(): void {
    const values: Record<string, unknown> = {};
    for (const s of this.slots) values[s.name] = this.fresh(s);
    this.current = deepFreeze({ values, keyed: {} });
  }

  /**
   * Clears every slot subscribed to `signal`, including its keyed partitions. Step signals are
   * scope-filtered: they clear only when `scope` is this container's scope (the reference's fix).
   */
  onSignal(signal: string, scope?: string): ClearedRef[] {
    if (SCOPED_SIGNALS.has(signal) && scope !== undefined && scope !== this.scope) return [];
    const cleared: ClearedRef[] = [];
    let values: Record<string, unknown> | null = null;
    let keyed: Record<string, Readonly<Record<string, unknown>>> | null = null;
    for (const s of this.slots) {
      if (!s.resetOn.includes(signal)) continue;
      values ??= { ...this.current.values };
      values[s.name] = this.fresh(s);
      cleared.push({ container: this.id, slot: s.name });
      const part = this.current.keyed[s.name];
      if (part) {
        keyed ??= { ...this.current.keyed };
        const next: Record<string, unknown> = {};
        for (const k of Object.keys(part)) {
          next[k] = this.fresh(s);
          cleared.push({ container: this.id, slot: s.name, key: k });
        }
        keyed[s.name] = next;
      }
    }
    if (values) this.current = deepFreeze({ values, keyed: keyed ?? this.current.keyed });
    return cleared;
  }

  checkpoint(): ContainerState {
    return this.current;
  }

  /** Takes an equal state (the checkpoint's shared copy of the current one) as the current state. */
  adopt(state: ContainerState): void {
    this.current = state;
  }

  /** Restores from a checkpointed state; slots missing there are reset, unknown names ignored. */
  restore(state: ContainerState): void {
    const values: Record<string, unknown> = {};
    const keyed: Record<string, Readonly<Record<string, unknown>>> = {};
    for (const s of this.slots) {
      values[s.name] = Object.hasOwn(state.values, s.name) ? state.values[s.name] : this.fresh(s);
      const part = state.keyed[s.name];
      if (part) keyed[s.name] = part;
    }
    this.current = deepFreeze({ values, keyed });
  }
}

// Builds live containers from ContainerDefs at run start (docs/reference-system.md §2.4). A removed value type is a
// BuildError naming container and slot (the reference failed silently); unknown reducers, lifetimes
// and value types only warn.
import { REMOVED_VALUE_TYPES, STATE_VALUE_TYPES, type ContainerDef } from '../domain/graph/graph.schema.ts';
import { LIFETIME_SIGNALS, resetSignals } from '../domain/state/lifetimes.ts';
import { isKnownReducer } from '../domain/state/reducers.ts';
import { StateContainer, type SlotSpec } from './container.ts';
import { BuildError } from './errors.ts';

export interface BuildOptions {
  /** Nodeset/plugin-owned containers may hold opaque types (the reference's allow_opaque). */
  allowOpaque?: boolean;
  /** Loop scope of each container id (default ""). */
  scopeOf?: (containerId: string) => string;
}

export interface BuiltContainers {
  containers: Map<string, StateContainer>;
  warnings: string[];
}

export function buildContainer(
  def: ContainerDef,
  opts: BuildOptions = {},
  warnings: string[] = [],
): StateContainer {
  const slots: SlotSpec[] = [];
  for (const [name, s] of Object.entries(def.states)) {
    if (!opts.allowOpaque && (REMOVED_VALUE_TYPES as readonly string[]).includes(s.value_type)) {
      throw new BuildError(
        `container '${def.id}' slot '${name}': value_type '${s.value_type}' is no longer allowed — state containers hold agent memory, not raw wire payloads (allowed: ${STATE_VALUE_TYPES.join(', ')})`,
        { container: def.id, slot: name },
      );
    }
    if (!opts.allowOpaque && !(STATE_VALUE_TYPES as readonly string[]).includes(s.value_type)) {
      warnings.push(
        `container '${def.id}' slot '${name}': unknown value_type '${s.value_type}', treated as ANY`,
      );
    }
    if (!isKnownReducer(s.type)) {
      warnings.push(
        `Unknown state type '${s.type}' for '${name}' in container '${def.id}', falling back to lastWrite`,
      );
    }
    if (!Object.hasOwn(LIFETIME_SIGNALS, s.lifetime)) {
      warnings.push(
        `container '${def.id}' slot '${name}': unknown lifetime '${s.lifetime}', treated as forever`,
      );
    }
    slots.push({
      name,
      type: s.type,
      reducer: isKnownReducer(s.type) ? s.type : 'lastWrite',
      value_type: s.value_type,
      lifetime: s.lifetime,
      config: s.config,
      resetOn: resetSignals(s),
    });
  }
  return new StateContainer(def.id, def.label, slots, opts.scopeOf?.(def.id) ?? '');
}

/** Every container of a (flattened) graph keyed by id; duplicate ids keep the last (as the reference). */
export function buildContainers(defs: readonly ContainerDef[], opts: BuildOptions = {}): BuiltContainers {
  const warnings: string[] = [];
  const containers = new Map<string, StateContainer>();
  for (const def of defs) containers.set(def.id, buildContainer(def, opts, warnings));
  return { containers, warnings };
}

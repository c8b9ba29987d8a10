// Container and slot rules (docs/reference-system.md §1.5, §2.4; extension reducers: docs/value-encodings.md): value types, reducers, lifetimes,
// reducer-specific config, reserved names, and slot names repeated across containers.
import {
  EXTENSION_REDUCERS,
  FIELD_REDUCERS,
  LIFETIMES,
  REFERENCE_REDUCERS,
  REMOVED_VALUE_TYPES,
  STATE_VALUE_TYPES,
  type StateDef,
} from '../graph/graph.schema.ts';
import { keySeg } from './issues.ts';
import { quote, type IssueIds, type ValidateCtx } from './validate.ctx.ts';

const REMOVED = new Set<string>(REMOVED_VALUE_TYPES);
const KNOWN_VALUE = new Set<string>(STATE_VALUE_TYPES);
const REFERENCE = new Set<string>(REFERENCE_REDUCERS);
const EXTENSION = new Set<string>(EXTENSION_REDUCERS);
const FIELD = new Set<string>(FIELD_REDUCERS);
const LIFE = new Set<string>(LIFETIMES);

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** What each reducer expects its initial value to look like (checked only when one is given). */
const INITIAL_SHAPE: Record<string, [(v: unknown) => boolean, string]> = {
  accumulator: [Array.isArray, 'a list'],
  counter: [(v) => typeof v === 'number', 'a number'],
  union: [Array.isArray, 'a list'],
  merge: [isObj, 'an object'],
  byKey: [isObj, 'an object'],
};

function checkReducer(ctx: ValidateCtx, s: StateDef, p: string, label: string, ids: IssueIds): void {
  if (EXTENSION.has(s.type)) {
    ctx.info(
      'extension-reducer',
      `${p}.type`,
      `${label} uses the Statewire reducer '${s.type}', which the reference backend does not understand (it would treat it as lastWrite)`,
      ids,
    );
  } else if (!REFERENCE.has(s.type)) {
    const hint =
      s.type === 'ephemeral' ? "; 'ephemeral' is a legacy reducer: use lastWrite with lifetime 'step'" : '';
    ctx.warn(
      'unknown-reducer',
      `${p}.type`,
      `${label} has unknown reducer '${s.type}': the reference backend treats it as lastWrite${hint}`,
      ids,
    );
  }
  const cfg = s.config;
  if (s.type === 'byKey') {
    if (!isObj(cfg.fields) || Object.keys(cfg.fields).length === 0) {
      ctx.error(
        'bykey-fields-missing',
        `${p}.config`,
        `${label} is byKey but declares no config.fields ({field: reducer})`,
        ids,
      );
    } else {
      for (const [field, reducer] of Object.entries(cfg.fields)) {
        if (typeof reducer !== 'string' || !FIELD.has(reducer)) {
          ctx.error(
            'bykey-field-reducer',
            `${p}.config.fields${keySeg(field)}`,
            `${label} field '${field}' has reducer ${JSON.stringify(reducer)}; allowed: ${quote(FIELD_REDUCERS)}`,
            ids,
          );
        }
      }
    }
  } else if (cfg.fields !== undefined) {
    ctx.warn(
      'fields-ignored',
      `${p}.config.fields`,
      `${label} has config.fields, which only the byKey reducer uses (ignored)`,
      ids,
    );
  }
  if (cfg.max_size !== undefined) {
    if (s.type !== 'accumulator')
      ctx.warn(
        'max-size-ignored',
        `${p}.config.max_size`,
        `${label} sets max_size, which only accumulator uses (ignored for ${s.type})`,
        ids,
      );
    else if (typeof cfg.max_size !== 'number' || !Number.isInteger(cfg.max_size) || cfg.max_size < 1) {
      ctx.error(
        'invalid-max-size',
        `${p}.config.max_size`,
        `${label} max_size must be a positive integer, got ${JSON.stringify(cfg.max_size)}`,
        ids,
      );
    }
  }
  const shape = INITIAL_SHAPE[s.type];
  if (
    shape &&
    cfg.initial_value !== undefined &&
    cfg.initial_value !== null &&
    !shape[0](cfg.initial_value)
  ) {
    ctx.warn(
      'initial-value-mismatch',
      `${p}.config.initial_value`,
      `${label} is ${s.type} but its initial_value is not ${shape[1]}`,
      ids,
    );
  }
}

function checkLifetime(ctx: ValidateCtx, s: StateDef, p: string, label: string, ids: IssueIds): void {
  if (!LIFE.has(s.lifetime)) {
    ctx.warn(
      'unknown-lifetime',
      `${p}.lifetime`,
      `${label} has unknown lifetime '${s.lifetime}': the reference backend treats it as forever`,
      ids,
    );
  }
  if (s.lifetime === 'custom' && s.reset_on.length === 0) {
    ctx.warn(
      'custom-without-reset-on',
      `${p}.reset_on`,
      `${label} has lifetime custom but no reset_on signals, so it never clears`,
      ids,
    );
  } else if (s.lifetime !== 'custom' && s.reset_on.length > 0) {
    ctx.warn(
      'reset-on-ignored',
      `${p}.reset_on`,
      `${label} lists reset_on ${quote(s.reset_on)} but its lifetime is '${s.lifetime}'; reset_on counts only with lifetime custom (kept, ignored)`,
      ids,
    );
  }
}

function checkValueType(ctx: ValidateCtx, s: StateDef, p: string, label: string, ids: IssueIds): void {
  if (REMOVED.has(s.value_type)) {
    ctx.error(
      'removed-value-type',
      `${p}.value_type`,
      `${label} has value_type '${s.value_type}', which is no longer allowed (containers hold agent memory, not raw wire payloads); allowed: ${STATE_VALUE_TYPES.join(', ')}`,
      ids,
    );
  } else if (!KNOWN_VALUE.has(s.value_type)) {
    ctx.warn(
      'unknown-value-type',
      `${p}.value_type`,
      `${label} has unknown value_type '${s.value_type}' (treated as ANY)`,
      ids,
    );
  }
}

export function checkContainers(ctx: ValidateCtx): void {
  const owners = new Map<string, string>();
  ctx.graph.containers.forEach((c, ci) => {
    for (const [name, s] of Object.entries(c.states)) {
      const p = `.containers[${ci}].states${keySeg(name)}`;
      const ids: IssueIds = { containerId: c.id, slot: name };
      const label = `slot '${name}' of container '${c.id}'`;
      if (name === '')
        ctx.error('invalid-state-name', p, `container '${c.id}' has a slot with an empty name`, ids);
      if (name.startsWith('__'))
        ctx.error(
          'reserved-state-name',
          p,
          `${label}: names starting with '__' are reserved for the engine`,
          ids,
        );
      checkValueType(ctx, s, p, label, ids);
      checkReducer(ctx, s, p, label, ids);
      checkLifetime(ctx, s, p, label, ids);
      const owner = owners.get(name);
      if (owner !== undefined && owner !== c.id) {
        // Containers are namespaces, so this is legitimate; an info only helps tell the two apart.
        ctx.info(
          'duplicate-state-name',
          p,
          `slot '${name}' is also declared in container '${owner}' (allowed: each container has its own slots)`,
          ids,
        );
      } else owners.set(name, c.id);
    }
  });
}

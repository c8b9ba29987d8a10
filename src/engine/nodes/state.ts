// Generic state nodes: read/write a slot of a granted container, broadcast a signal. The container id
// is the one the node's own graph uses (inside composites too); ungranted access fails the node.
import { cfgString, type ContainerHandle, type NodeContext, type NodeHandler } from '../handler.types.ts';

/** A key input as text: a string, or a finite number as its decimal text (e.g. an iterIn's `step`). */
function inputKey(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  return typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;
}

function keyOf(
  config: Readonly<Record<string, unknown>>,
  inputs: Readonly<Record<string, unknown>>,
): string | undefined {
  const fromInput = inputKey(inputs.key);
  if (fromInput !== undefined) return fromInput;
  const k = config.key;
  return typeof k === 'string' && k !== '' ? k : typeof k === 'number' ? String(k) : undefined;
}

/** The configured slot, or a clear error when config.state is missing. */
function slotOf(ctx: NodeContext, c: ContainerHandle): string {
  const state = cfgString(ctx.node.config, 'state');
  if (!state) {
    throw new Error(
      `${ctx.node.type} '${ctx.node.id}': set config.state to a slot of container '${c.id}' (slots: ${c.slots().join(', ') || 'none'})`,
    );
  }
  return state;
}

export const stateRead: NodeHandler = {
  fire(inputs, ctx) {
    const c = ctx.container(cfgString(ctx.node.config, 'container', 'graph_state'));
    return { outputs: { value: c.read(slotOf(ctx, c), keyOf(ctx.node.config, inputs)) } };
  },
};

export const stateWrite: NodeHandler = {
  fire(inputs, ctx) {
    const c = ctx.container(cfgString(ctx.node.config, 'container', 'graph_state'));
    // An optional config.value writes a constant (e.g. 1 into a counter) with the input as trigger.
    const value = Object.hasOwn(ctx.node.config, 'value') ? ctx.node.config.value : inputs.value;
    c.write(slotOf(ctx, c), value, keyOf(ctx.node.config, inputs));
    return { outputs: { value } };
  },
};

export const stateEvict: NodeHandler = {
  fire(inputs, ctx) {
    const c = ctx.container(cfgString(ctx.node.config, 'container', 'graph_state'));
    const key = inputKey(inputs.key);
    if (key === undefined) {
      throw new Error(
        `stateEvict '${ctx.node.id}': key must be a string or a number, got ${JSON.stringify(inputs.key) ?? 'undefined'}`,
      );
    }
    // A trigger that arrived with the key gates the eviction (e.g. a `done` flag).
    const gated = Object.hasOwn(inputs, 'trigger') && !inputs.trigger;
    return { outputs: { key, evicted: gated ? [] : c.evict(key) } };
  },
};

export const emitSignal: NodeHandler = {
  fire(inputs, ctx) {
    const only = ctx.node.config.only_if_truthy === true;
    if (!only || Boolean(inputs.trigger)) {
      ctx.emitSignal(
        cfgString(ctx.node.config, 'signal', 'my_signal'),
        ctx.node.config.payload ?? inputs.trigger ?? null,
      );
    }
    return { outputs: { trigger: inputs.trigger ?? null } };
  },
};

// Control-category handlers: graph boundary pivots, sources and notes. (iterIn/iterOut are handled
// by the executor itself, because their firing is the loop machinery.)
import type { NodeHandler } from '../handler.types.ts';

export const graphIn: NodeHandler = {
  // Top-level graphIn is a source (value from config.value); inside a kept composite the parent wire
  // lands on `value`.
  fire: (inputs, ctx) => ({
    outputs: { value: 'value' in inputs ? inputs.value : (ctx.node.config.value ?? null) },
  }),
};

export const graphOut: NodeHandler = {
  fire: (inputs) => ({ outputs: { value: inputs.value ?? null } }),
};

export const nullSource: NodeHandler = { fire: () => ({ outputs: { value: null } }) };

export const constant: NodeHandler = {
  fire: (_i, ctx) => ({ outputs: { value: ctx.node.config.value ?? null } }),
};

export const note: NodeHandler = { fire: () => ({ outputs: {} }) };

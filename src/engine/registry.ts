// The node type registry: handler + catalog spec per type. `createRegistry()` holds the built-ins;
// plugins add types with `register(spec, handler)`. The registry's specs are the catalog the UI shows.
import { BUILTIN_NODE_SPECS } from '../domain/catalog/catalog.builtins.ts';
import { NodeSpecSchema, type NodeSpec, type NodeSpecInput } from '../domain/catalog/catalog.schema.ts';
import { toHandler, type HandlerInput, type NodeHandler } from './handler.types.ts';
import { constant, graphIn, graphOut, note, nullSource } from './nodes/control.ts';
import { gridEnv, gridPolicy } from './nodes/grid.ts';
import { llmCall } from './nodes/llmCall.ts';
import { emitSignal, stateEvict, stateRead, stateWrite } from './nodes/state.ts';
import { historyLog, textParse } from './nodes/text.ts';
import { phaseSwitch } from './nodes/routing.ts';
import { VIEWER_TYPES, viewerHandler } from './nodes/viewers.ts';

export interface RegisteredType {
  spec: NodeSpec;
  handler: NodeHandler;
}

/** Types the executor runs itself (loop machinery); they have specs but no handler. */
export const PIVOT_TYPES = new Set(['iterIn', 'iterOut']);

export class NodeRegistry {
  private readonly types = new Map<string, RegisteredType>();

  register(spec: NodeSpecInput, handler: HandlerInput): NodeSpec {
    const parsed = NodeSpecSchema.parse(spec);
    this.types.set(parsed.type, { spec: parsed, handler: toHandler(handler) });
    return parsed;
  }

  /** Removes a type (node services re-register theirs on reload). */
  unregister(type: string): boolean {
    return this.types.delete(type);
  }

  get(type: string): RegisteredType | undefined {
    return this.types.get(type);
  }

  has(type: string): boolean {
    return this.types.has(type);
  }

  /** Catalog for port resolution and the UI (GET node schemas). */
  catalog(): Map<string, NodeSpec> {
    return new Map([...this.types].map(([k, v]) => [k, v.spec]));
  }

  specs(): NodeSpec[] {
    return [...this.types.values()].map((t) => t.spec);
  }
}

const BUILTIN_HANDLERS: Record<string, NodeHandler> = {
  iterIn: { fire: () => ({ outputs: {} }) },
  iterOut: { fire: () => ({ outputs: {} }) },
  graphIn,
  graphOut,
  nullSource,
  constant,
  note,
  llmCall,
  textParse,
  historyLog,
  stateRead,
  stateWrite,
  stateEvict,
  emitSignal,
  gridEnv,
  gridPolicy,
  phaseSwitch,
  ...Object.fromEntries(VIEWER_TYPES.map((t) => [t, viewerHandler(t)])),
};

export function createRegistry(): NodeRegistry {
  const reg = new NodeRegistry();
  for (const spec of BUILTIN_NODE_SPECS) {
    const handler = BUILTIN_HANDLERS[spec.type];
    if (handler) reg.register(spec, handler);
  }
  return reg;
}

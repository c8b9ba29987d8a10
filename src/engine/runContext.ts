// Everything a run fixes at build time (docs/reference-system.md §3.1 BUILD): the flattened graph, adjacency,
// containers, grant index, scope forest, budgets, entry nodes, resolved ports — plus the injected
// services (event sink, clock, LLM provider, effect store). The executor's mutable state lives apart
// (LiveState), so a checkpoint never has to copy any of this.
import {
  RUNTIME_DEFAULT_STEP_BUDGET,
  type EdgeDef,
  type NodeDef,
  type SynthesizedPort,
} from '../domain/graph/graph.schema.ts';
import type { PortSpec } from '../domain/catalog/catalog.schema.ts';
import { synthesizeIterInPorts } from '../domain/flow/loopPorts.ts';
import { resolvePorts } from '../domain/flow/ports.ts';
import { parseWireType } from '../domain/flow/wireTypes.ts';
import type { EngineEvent } from '../domain/protocol/protocol.ts';
import type { EventSink, RunOptions } from './run.api.ts';
import type { StateContainer } from './container.ts';
import { buildContainers } from './containers.build.ts';
import { BuildError } from './errors.ts';
import type { LiveState } from './liveState.ts';
import type { FlatGraph } from './flatten.ts';
import { GrantIndex } from './grants.ts';
import type { LlmProvider } from './handler.types.ts';
import type { NodeRegistry } from './registry.ts';
import { buildScopes, commonScope, GRAPH_SCOPE, type ScopeForest } from './scopes.ts';
import { deepFreeze } from './freeze.ts';

export interface RunContextInit {
  flat: FlatGraph;
  registry: NodeRegistry;
  options: RunOptions;
  sink: EventSink;
  llm: LlmProvider;
  onCheckpoint: (step: number) => void;
}

export class RunContext {
  readonly flat: FlatGraph;
  readonly registry: NodeRegistry;
  readonly options: RunOptions;
  readonly runId: string;
  readonly lineage: string;
  readonly llm: LlmProvider;
  readonly now: () => number;
  readonly nodes = new Map<string, NodeDef>();
  readonly outEdges = new Map<string, EdgeDef[]>();
  readonly inEdges = new Map<string, EdgeDef[]>();
  readonly scopes: ScopeForest;
  readonly containers: Map<string, StateContainer>;
  readonly grants: GrantIndex;
  readonly warnings: string[];
  readonly entries: string[] = [];
  readonly iterInPorts = new Map<string, SynthesizedPort[]>();
  readonly wiredIterInHandles = new Map<string, string[]>();
  readonly graphBudget: number;
  readonly maxFirings: number;
  private readonly ports = new Map<string, { inputs: PortSpec[]; outputs: PortSpec[] }>();
  private readonly sink: EventSink;
  readonly onCheckpoint: (step: number) => void;

  constructor(init: RunContextInit) {
    const { flat, registry, options } = init;
    this.flat = flat;
    this.registry = registry;
    this.options = options;
    this.runId = options.runId;
    this.lineage = options.lineage ?? options.runId;
    this.llm = init.llm;
    this.now = options.now ?? (() => 0);
    this.sink = init.sink;
    this.onCheckpoint = init.onCheckpoint;
    this.warnings = [...flat.warnings];
    for (const n of flat.nodes) {
      if (!registry.has(n.type) && n.type !== 'iterIn' && n.type !== 'iterOut') {
        throw new BuildError(
          `node '${n.id}': unknown node type '${n.type}' (no handler registered; is its plugin loaded?)`,
          { node: n.id },
        );
      }
      this.nodes.set(n.id, n);
    }
    for (const e of flat.edges) {
      if (!this.nodes.has(e.source) || !this.nodes.has(e.target)) {
        this.warnings.push(`edge '${e.id}' references a missing node; ignored`);
        continue;
      }
      (this.outEdges.get(e.source) ?? this.outEdges.set(e.source, []).get(e.source)!).push(e);
      (this.inEdges.get(e.target) ?? this.inEdges.set(e.target, []).get(e.target)!).push(e);
    }
    this.scopes = buildScopes(flat.nodes, [...this.outEdges.values()].flat());
    const catalog = registry.catalog();
    const graphView = { nodes: flat.nodes, edges: flat.edges };
    for (const n of flat.nodes) {
      const r = resolvePorts(n, graphView, catalog);
      this.ports.set(n.id, { inputs: r.inputs, outputs: r.outputs });
      if (n.type === 'iterIn') {
        this.iterInPorts.set(n.id, synthesizeIterInPorts(graphView, n));
        this.wiredIterInHandles.set(n.id, [
          ...new Set((this.inEdges.get(n.id) ?? []).map((e) => e.targetHandle || e.sourceHandle || 'value')),
        ]);
      }
    }
    // Containers belong to the innermost scope shared by the nodes granted them (root by default).
    const firstRoot = this.scopes.roots[0] ?? GRAPH_SCOPE;
    const nodesOf = new Map<string, string[]>();
    for (const g of flat.grants)
      (nodesOf.get(g.container_id) ?? nodesOf.set(g.container_id, []).get(g.container_id)!).push(g.node_id);
    const built = buildContainers(flat.containers, {
      scopeOf: (cid) => {
        const scopes = (nodesOf.get(cid) ?? [])
          .filter((n) => this.nodes.has(n))
          .map((n) => this.scopes.scopeOf.get(n) ?? GRAPH_SCOPE);
        const common = commonScope(this.scopes, scopes);
        return common === GRAPH_SCOPE ? firstRoot : common;
      },
    });
    this.containers = built.containers;
    this.warnings.push(...built.warnings);
    this.grants = new GrantIndex(flat.grants, this.containers, this.warnings);
    for (const n of flat.nodes) {
      if (n.type === 'note' || n.type === 'iterOut') continue;
      const incoming = this.inEdges.get(n.id) ?? [];
      if (
        n.type === 'iterIn'
          ? incoming.length === 0
          : incoming.length === 0 && this.requiredInputs(n).length === 0
      )
        this.entries.push(n.id);
    }
    this.graphBudget = options.stepBudget ?? flat.step_budget ?? RUNTIME_DEFAULT_STEP_BUDGET;
    // Runaway cap: the reference's budget × nodes × 3, using the deepest product of nested budgets.
    let iterations = this.graphBudget;
    for (const s of this.scopes.scopes.values()) {
      let product = 1;
      for (let id: string = s.id; id; id = this.scopes.scopes.get(id)?.parent ?? GRAPH_SCOPE)
        product *= Math.max(1, this.budgetOf(id));
      iterations = Math.max(iterations, product);
    }
    this.maxFirings = Math.max(64, iterations * Math.max(1, flat.nodes.length) * 3);
  }

  /** Sees every event after the sink (the executor watches for breakpoint hits). */
  observer: ((event: EngineEvent) => void) | undefined;

  emit(event: EngineEvent): void {
    this.sink(event);
    this.observer?.(event);
  }

  log(nodeId: string, message: string): void {
    this.warnings.push(`${nodeId}: ${message}`);
  }

  /** Per-scope budget: iterIn config.step_budget → nearest ancestor's → graph budget. */
  budgetOf(scopeId: string): number {
    for (let id = scopeId; id; id = this.scopes.scopes.get(id)?.parent ?? GRAPH_SCOPE) {
      const b = this.nodes.get(id)?.config.step_budget;
      if (typeof b === 'number' && b > 0) return b;
    }
    return this.graphBudget;
  }

  requiredInputs(node: NodeDef): string[] {
    return (this.ports.get(node.id)?.inputs ?? []).filter((p) => !p.optional).map((p) => p.name);
  }

  outputPorts(node: NodeDef): PortSpec[] {
    return this.ports.get(node.id)?.outputs ?? [];
  }

  isListPort(node: NodeDef, handle: string): boolean {
    const p = this.ports.get(node.id)?.inputs.find((x) => x.name === handle);
    return parseWireType(p?.wire_type)?.list === true;
  }

  initialLive(): LiveState {
    const scopes: LiveState['scopes'] = {};
    for (const id of this.scopes.scopes.keys()) scopes[id] = { counter: 0, terminated: false, active: false };
    const nodeStates: Record<string, unknown> = {};
    for (const n of this.flat.nodes) {
      const init = this.registry.get(n.type)?.handler.initState;
      if (init) nodeStates[n.id] = deepFreeze(init({ id: n.id, config: n.config }));
    }
    return {
      step: 0,
      firings: 0,
      phase: 'init',
      status: 'idle',
      queue: [],
      pending: {},
      slots: {},
      arrived: {},
      scopes,
      carry: {},
      latches: {},
      harvest: {},
      nodeStates,
      errors: [],
      errorCount: 0,
      rootTerminated: false,
      features: Object.fromEntries(this.flat.features.map((f) => [f.name, null])),
    };
  }
}

// Conditional routing at run time (docs/routing.md). Features live in the run state
// (LiveState.features: every declared feature, null while unset), so snapshots, checkpoints, restore
// and fork carry them like container slots. When a node with a routed port (an output handle with an
// edge carrying a condition or an effect) finishes its visit:
// - each edge's condition is evaluated against the state *before* the visit (features and, for slot
//   comparisons, the container values as they were when the visit began);
// - each edge's effect is checked against that state and the node's proposals (ctx.proposeFeature);
// - exactly one compatible edge per routed port is taken: it alone delivers, its effect gives the
//   successor features, and a `route` event says which edge and why;
// - none or several compatible edges, an unset feature read, or proposals no effect accepts throw a
//   RouteError: the executor fails the run and discards the step's candidate state.
import type { EdgeDef } from '../domain/graph/graph.schema.ts';
import type { FeatureValues, RouteCandidate, RouteData } from '../domain/protocol/protocol.ts';
import {
  checkEffect,
  conditionFeatures,
  evalCondition,
  RoutingEvalError,
  splitSlotRef,
  hasSlotComparison,
  type FeatureState,
} from '../domain/routing/routing.eval.ts';
import { routedPorts, type RoutedPort } from '../domain/routing/routing.ports.ts';
import {
  describeDomain,
  inDomain,
  type FeatureDef,
  type FeatureValue,
} from '../domain/routing/routing.schema.ts';
import { conditionText, effectText, featuresText } from '../domain/routing/routing.text.ts';
import type { ContainerState, StateContainer } from './container.ts';
import type { GrantIndex } from './grants.ts';

export type RouteErrorCode =
  | 'ROUTE_AMBIGUOUS'
  | 'ROUTE_MISSING'
  | 'ROUTE_UNSET_FEATURE'
  | 'ROUTE_CONDITION_FAILED'
  | 'ROUTE_PROPOSAL_REFUSED'
  | 'ROUTE_EFFECT_CONFLICT';

/** A failed route decision: the run ends in error and the step is not committed. */
export class RouteError extends Error {
  override name = 'RouteError';
  constructor(
    readonly code: RouteErrorCode,
    message: string,
    readonly details: {
      node_id: string;
      port?: string;
      edges: string[];
      features: FeatureValues;
      candidates?: RouteCandidate[];
    },
  ) {
    super(message);
  }
}

/** What the executor knows about one visit of a node. */
export interface Visit {
  /** Features when the visit began. */
  before: FeatureState;
  /** Container states when the visit began (only for nodes whose conditions compare slots). */
  states?: ReadonlyMap<string, ContainerState>;
  /** The node's proposals (ctx.proposeFeature), last one per feature. */
  proposals: Record<string, FeatureValue>;
}

export interface Decision {
  /** Edges of routed ports that were not taken: they do not deliver. */
  skip: ReadonlySet<string>;
  after: FeatureState;
  events: RouteData[];
}

/** Every declared feature's value in `state` (null when unset or absent, e.g. an older checkpoint). */
export function featureValues(
  features: readonly FeatureDef[],
  state: FeatureState | undefined,
): FeatureValues {
  return Object.fromEntries(features.map((f) => [f.name, state?.[f.name] ?? null]));
}

const quote = (ids: readonly string[]) => ids.map((i) => `'${i}'`).join(', ');

export class Router {
  private readonly byName: ReadonlyMap<string, FeatureDef>;
  private readonly ports = new Map<string, RoutedPort[]>();
  private readonly slotNodes = new Set<string>();

  constructor(
    readonly features: readonly FeatureDef[],
    edges: readonly EdgeDef[],
    private readonly grants: GrantIndex,
    private readonly containers: ReadonlyMap<string, StateContainer>,
  ) {
    this.byName = new Map(features.map((f) => [f.name, f]));
    for (const p of routedPorts(edges)) {
      (this.ports.get(p.node) ?? this.ports.set(p.node, []).get(p.node)!).push(p);
      if (p.edges.some((e) => e.condition && hasSlotComparison(e.condition))) this.slotNodes.add(p.node);
    }
  }

  /** Every declared feature, unset. */
  initial(): FeatureState {
    return Object.fromEntries(this.features.map((f) => [f.name, null]));
  }

  /** The full feature map of a (possibly older) state: declared features, null when absent. */
  normalize(state: FeatureState | undefined): FeatureValues {
    return featureValues(this.features, state);
  }

  /** Whether the graph routes at all (features declared or a routed port): else nothing changes. */
  get active(): boolean {
    return this.features.length > 0 || this.ports.size > 0;
  }

  routes(nodeId: string): boolean {
    return this.ports.has(nodeId);
  }

  /** Edges of the node's routed ports (a failed visit delivers along none of them). */
  routedEdges(nodeId: string): ReadonlySet<string> {
    return new Set((this.ports.get(nodeId) ?? []).flatMap((p) => p.edges.map((e) => e.id)));
  }

  /** Whether a visit of the node must remember the container states it began with. */
  readsSlots(nodeId: string): boolean {
    return this.slotNodes.has(nodeId);
  }

  /** ctx.proposeFeature for one visit: checks name and domain, records the last value per feature. */
  proposer(nodeId: string, proposals: Record<string, FeatureValue>): (name: string, value: unknown) => void {
    return (name, value) => {
      const f = this.byName.get(name);
      if (!f)
        throw new Error(
          `node '${nodeId}' proposes undeclared feature '${name}' (features: ${[...this.byName.keys()].join(', ') || 'none'})`,
        );
      if (value === null || value === undefined)
        throw new Error(`node '${nodeId}' proposes ${name}=unset: an initialised feature cannot be reset`);
      if (!inDomain(f.domain, value))
        throw new Error(
          `node '${nodeId}' proposes ${name}=${JSON.stringify(value)}, outside its domain ${describeDomain(f.domain)}`,
        );
      proposals[name] = value;
    };
  }

  /** The route decision of a finished visit (throws RouteError; see the file comment). */
  decide(nodeId: string, visit: Visit, step: number): Decision {
    const ports = this.ports.get(nodeId) ?? [];
    const before = this.normalize(visit.before);
    const proposed = Object.keys(visit.proposals);
    if (ports.length === 0) {
      if (proposed.length === 0) return { skip: new Set(), after: visit.before, events: [] };
      throw new RouteError(
        'ROUTE_PROPOSAL_REFUSED',
        `node '${nodeId}' proposes ${featuresText(visit.proposals)}, but none of its outgoing edges has an effect that could accept it (features: ${featuresText(before)})`,
        { node_id: nodeId, edges: [], features: before },
      );
    }
    const skip = new Set<string>();
    const events: RouteData[] = [];
    let after: FeatureValues | undefined;
    let afterBy = '';
    for (const port of ports) {
      const { edge, next, candidates } = this.decidePort(nodeId, port, visit, before);
      for (const e of port.edges) if (e.id !== edge.id) skip.add(e.id);
      if (after) {
        const clash = Object.keys(next).find((k) => next[k] !== after![k]);
        if (clash !== undefined)
          throw new RouteError(
            'ROUTE_EFFECT_CONFLICT',
            `node '${nodeId}': edge '${edge.id}' sets ${clash}=${String(next[clash])} but edge '${afterBy}' sets ${clash}=${String(after[clash])}`,
            { node_id: nodeId, edges: [afterBy, edge.id], features: before },
          );
      }
      after = next;
      afterBy = edge.id;
      const read = edge.condition ? conditionFeatures(edge.condition) : [];
      const reason = `${edge.condition ? conditionText(edge.condition) : 'no condition'} with ${featuresText(before, read.length > 0 ? read : undefined)}${edge.effect ? `; effect ${effectText(edge.effect)}` : ''}`;
      events.push({
        step,
        node_id: nodeId,
        port: port.port,
        edge_id: edge.id,
        taken: true,
        reason,
        candidates,
        before,
        after: next,
      });
    }
    return { skip, after: after ?? before, events };
  }

  private slotReader(nodeId: string, visit: Visit): (ref: string) => unknown {
    return (ref) => {
      const { container, slot } = splitSlotRef(ref);
      const flat = this.grants.forNode(nodeId).get(container);
      if (flat === undefined)
        throw new RoutingEvalError(
          'slot-unreadable',
          `condition reads '${ref}', but node '${nodeId}' holds no grant to container '${container}'`,
        );
      const c = this.containers.get(flat);
      if (!c || !c.slots.some((s) => s.name === slot))
        throw new RoutingEvalError(
          'slot-unreadable',
          `condition reads '${ref}': container '${container}' has no slot '${slot}'`,
        );
      const state = visit.states?.get(flat) ?? c.state;
      return state.values[slot];
    };
  }

  private decidePort(
    nodeId: string,
    port: RoutedPort,
    visit: Visit,
    before: FeatureValues,
  ): { edge: EdgeDef; next: FeatureValues; candidates: RouteCandidate[] } {
    const env = { features: before, slot: this.slotReader(nodeId, visit) };
    const where = `node '${nodeId}' (port '${port.port}')`;
    const ids = port.edges.map((e) => e.id);
    const candidates: RouteCandidate[] = [];
    const nexts = new Map<string, FeatureValues>();
    for (const e of port.edges) {
      let holds = true;
      if (e.condition) {
        try {
          holds = evalCondition(e.condition, env);
        } catch (err) {
          if (!(err instanceof RoutingEvalError)) throw err;
          throw new RouteError(
            err.code === 'unset-feature' ? 'ROUTE_UNSET_FEATURE' : 'ROUTE_CONDITION_FAILED',
            `${where}: edge '${e.id}' (${conditionText(e.condition)}): ${err.message}; features ${featuresText(before)}`,
            { node_id: nodeId, port: port.port, edges: [e.id], features: before },
          );
        }
      }
      const eff = checkEffect(e.effect, before, visit.proposals);
      const c: RouteCandidate = {
        edge_id: e.id,
        target: e.target,
        condition_holds: holds,
        effect_ok: eff.ok,
      };
      if (e.condition) c.condition = conditionText(e.condition);
      if (e.effect) c.effect = effectText(e.effect);
      if (!eff.ok) c.effect_reason = eff.reason;
      candidates.push(c);
      if (holds && eff.ok) nexts.set(e.id, this.normalize(eff.after));
    }
    const compatible = port.edges.filter((e) => nexts.has(e.id));
    if (compatible.length === 1) {
      const edge = compatible[0]!;
      return { edge, next: nexts.get(edge.id)!, candidates };
    }
    const proposals =
      Object.keys(visit.proposals).length > 0 ? `, proposals ${featuresText(visit.proposals)}` : '';
    const detail = candidates
      .map(
        (c) =>
          `'${c.edge_id}' ${c.condition ?? 'no condition'}: ${!c.condition_holds ? 'does not hold' : c.effect_ok ? 'compatible' : `effect refuses (${c.effect_reason ?? ''})`}`,
      )
      .join('; ');
    if (compatible.length === 0)
      throw new RouteError(
        'ROUTE_MISSING',
        `${where}: no compatible route among edges ${quote(ids)} with features ${featuresText(before)}${proposals} (${detail})`,
        { node_id: nodeId, port: port.port, edges: ids, features: before, candidates },
      );
    throw new RouteError(
      'ROUTE_AMBIGUOUS',
      `${where}: ambiguous route — edges ${quote(compatible.map((e) => e.id))} are all compatible with features ${featuresText(before)}${proposals}; exactly one must be (${detail})`,
      { node_id: nodeId, port: port.port, edges: compatible.map((e) => e.id), features: before, candidates },
    );
  }
}

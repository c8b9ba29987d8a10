// Validation of features, conditions and effects (codes in docs/routing.md and src/domain/README.md).
// Paths point into the saved file: the `x-statewire` block holds features and edge routes.
import type { EdgeDef } from '../graph/graph.schema.ts';
import type { ValidateCtx } from '../validate/validate.ctx.ts';
import { keySeg } from '../validate/issues.ts';
import {
  describeDomain,
  EXTENSION_KEY,
  inDomain,
  type Condition,
  type FeatureDef,
  type FeatureValue,
} from './routing.schema.ts';
import { conditionFeatures, effectInitialises, parseJsonPath, splitSlotRef } from './routing.eval.ts';
import { routedPorts } from './routing.ports.ts';
import { checkPort, findingMessage } from './routing.check.ts';

const BLOCK = keySeg(EXTENSION_KEY);
const routePath = (e: EdgeDef) => `${BLOCK}.edges${keySeg(e.id)}`;

/** Every feature reference of a condition with the JSON path of its value(s). */
function walkCondition(c: Condition, path: string, visit: (c: Condition, path: string) => void): void {
  visit(c, path);
  if ('all' in c) c.all.forEach((x, i) => walkCondition(x, `${path}.all[${i}]`, visit));
  else if ('any' in c) c.any.forEach((x, i) => walkCondition(x, `${path}.any[${i}]`, visit));
  else if ('not' in c) walkCondition(c.not, `${path}.not`, visit);
}

function checkValue(
  ctx: ValidateCtx,
  f: FeatureDef | undefined,
  v: FeatureValue,
  path: string,
  e: EdgeDef,
): void {
  if (f && !inDomain(f.domain, v))
    ctx.error(
      'feature-value-outside-domain',
      path,
      `edge '${e.id}': ${JSON.stringify(v)} is not a value of feature '${f.name}' (domain ${describeDomain(f.domain)})`,
      { edgeId: e.id },
    );
}

function unknownFeature(ctx: ValidateCtx, name: string, path: string, e: EdgeDef, declared: string[]): void {
  ctx.error(
    'unknown-feature',
    path,
    `edge '${e.id}' uses feature '${name}', which the graph does not declare (features: ${declared.join(', ') || 'none'})`,
    { edgeId: e.id },
  );
}

function checkFeatureDecls(ctx: ValidateCtx, features: readonly FeatureDef[]): void {
  const seen = new Set<string>();
  features.forEach((f, i) => {
    const p = `${BLOCK}.features[${i}]`;
    if (seen.has(f.name))
      ctx.error('duplicate-feature', `${p}.name`, `feature '${f.name}' is declared twice`);
    seen.add(f.name);
    if (f.domain !== 'bool' && 'enum' in f.domain) {
      const vals = f.domain.enum;
      if (new Set(vals).size !== vals.length)
        ctx.warn('duplicate-domain-value', `${p}.domain.enum`, `feature '${f.name}' lists a value twice`);
    }
  });
}

function checkSlotCondition(ctx: ValidateCtx, e: EdgeDef, c: Condition, path: string): void {
  if (!('slot' in c)) return;
  const ids = { edgeId: e.id };
  const segs = parseJsonPath(c.path);
  if (typeof segs === 'string')
    ctx.error('invalid-slot-path', `${path}.path`, `edge '${e.id}': ${segs}`, ids);
  const { container, slot } = splitSlotRef(c.slot);
  const def = ctx.graph.containers.find((x) => x.id === container);
  if (!def || !Object.hasOwn(def.states, slot)) {
    ctx.error(
      'unknown-slot',
      `${path}.slot`,
      def
        ? `edge '${e.id}': container '${container}' has no slot '${slot}' (slots: ${Object.keys(def.states).join(', ') || 'none'})`
        : `edge '${e.id}': no container '${container}' in this graph`,
      ids,
    );
    return;
  }
  if (!ctx.graph.access_grants.some((g) => g.node_id === e.source && g.container_id === container))
    ctx.error(
      'condition-slot-ungranted',
      `${path}.slot`,
      `edge '${e.id}': its condition reads '${c.slot}', but its source node '${e.source}' holds no grant to container '${container}'`,
      { ...ids, nodeId: e.source, containerId: container },
    );
}

function checkEdge(ctx: ValidateCtx, e: EdgeDef, byName: Map<string, FeatureDef>): void {
  const declared = [...byName.keys()];
  const base = routePath(e);
  if (e.condition) {
    walkCondition(e.condition, `${base}.condition`, (c, p) => {
      checkSlotCondition(ctx, e, c, p);
      if (!('feature' in c)) return;
      const f = byName.get(c.feature);
      if (!f) return unknownFeature(ctx, c.feature, `${p}.feature`, e, declared);
      if ('in' in c) c.in.forEach((v, i) => checkValue(ctx, f, v, `${p}.in[${i}]`, e));
      else checkValue(ctx, f, c.eq, `${p}.eq`, e);
    });
  }
  const eff = e.effect;
  if (eff === undefined || eff === 'unconstrained') return;
  for (const [name, v] of Object.entries(eff.assign ?? {})) {
    const p = `${base}.effect.assign${keySeg(name)}`;
    const f = byName.get(name);
    if (!f) unknownFeature(ctx, name, p, e, declared);
    else checkValue(ctx, f, v, p, e);
    if (eff.allow && Object.hasOwn(eff.allow, name))
      ctx.warn(
        'effect-assign-and-allow',
        p,
        `edge '${e.id}' both assigns and allows feature '${name}'; the assignment wins`,
        { edgeId: e.id },
      );
  }
  for (const [name, pairs] of Object.entries(eff.allow ?? {})) {
    const p = `${base}.effect.allow${keySeg(name)}`;
    const f = byName.get(name);
    if (!f) unknownFeature(ctx, name, p, e, declared);
    else
      pairs.forEach(([a, b], i) => {
        checkValue(ctx, f, a, `${p}[${i}][0]`, e);
        checkValue(ctx, f, b, `${p}[${i}][1]`, e);
      });
  }
}

/** Routing rules of one graph level (root only: the engine does not route inside composites yet). */
export function checkRouting(ctx: ValidateCtx): void {
  const features = ctx.graph.features ?? [];
  const routed = ctx.graph.edges.filter((e) => e.condition !== undefined || e.effect !== undefined);
  if (features.length === 0 && routed.length === 0) return;
  if (!ctx.isRoot) {
    ctx.error(
      'routing-in-subgraph',
      BLOCK,
      'features and edge conditions/effects inside a composite subgraph are not supported yet; move them to the top-level graph',
    );
    return;
  }
  checkFeatureDecls(ctx, features);
  const byName = new Map(features.map((f) => [f.name, f]));
  for (const e of routed) checkEdge(ctx, e, byName);

  // A condition on a feature that no effect in the graph can give a first value always fails.
  const initialisable = new Set(
    features
      .filter((f) => ctx.graph.edges.some((e) => effectInitialises(e.effect, f.name)))
      .map((f) => f.name),
  );
  for (const e of routed) {
    if (!e.condition) continue;
    for (const name of conditionFeatures(e.condition)) {
      if (!byName.has(name) || initialisable.has(name)) continue;
      ctx.error(
        'feature-never-initialised',
        `${routePath(e)}.condition`,
        `edge '${e.id}' reads feature '${name}', but no edge's effect assigns it (assign or unconstrained), so it stays unset and reading it fails`,
        { edgeId: e.id },
      );
    }
  }

  for (const port of routedPorts(ctx.graph.edges)) {
    if (!port.conditional) continue;
    const plain = port.edges.filter((e) => e.condition === undefined);
    const ids = { nodeId: port.node };
    if (plain.length >= 2)
      ctx.error(
        'two-unconditional-routes',
        ctx.nodePath(port.node),
        `routing node '${port.node}' (port '${port.port}') has ${plain.length} unconditional edges (${plain.map((e) => `'${e.id}'`).join(', ')}) beside conditional ones; each of them always holds, so the route is ambiguous`,
        { ...ids, edgeId: plain[1]!.id },
      );
    for (const f of checkPort(port, features)) {
      const message = findingMessage(port, f);
      const path = ctx.nodePath(port.node);
      const edgeId = 'edges' in f ? f.edges[0] : undefined;
      const at = { ...ids, ...(edgeId !== undefined ? { edgeId } : {}) };
      if (f.kind === 'overlap') ctx.warn('routes-overlap', path, message, at);
      else if (f.kind === 'gap') ctx.warn('routes-gap', path, message, at);
      else if (f.kind === 'not-enumerable') ctx.info('routes-not-enumerable', path, message, at);
      else ctx.info('routes-not-checked', path, message, ids);
    }
  }
}

// The static route checker: for each routing port (one with a conditional edge), enumerate every
// combination of the features its conditions read (when the product of their domains is at most
// MAX_COMBINATIONS) and find a combination where two conditions hold (overlap: the run would stop
// with an ambiguous route) or none holds (gap: a missing route). Effects are not considered (the
// proposals are only known at run time), nor the unset state (reading it is its own error). Slot
// comparisons cannot be enumerated: they count as unknown, and a finding that depends on them is not
// reported (an info says so).
import type { FeatureDef, FeatureValue } from './routing.schema.ts';
import { domainSize, domainValues } from './routing.schema.ts';
import { conditionFeatures, evalCondition3, hasSlotComparison, type Truth } from './routing.eval.ts';
import type { RoutedPort } from './routing.ports.ts';
import { featuresText } from './routing.text.ts';

export const MAX_COMBINATIONS = 4096;

export type PortFinding =
  | {
      kind: 'overlap';
      /** The edges whose conditions all hold at `example`. */
      edges: string[];
      example: Record<string, FeatureValue>;
      /** How many of the enumerated combinations overlap. */
      count: number;
      total: number;
    }
  | { kind: 'gap'; edges: string[]; example: Record<string, FeatureValue>; count: number; total: number }
  | { kind: 'not-enumerable'; edges: string[] }
  | { kind: 'too-many'; features: string[]; total: number };

function* combinations(
  names: readonly string[],
  values: readonly FeatureValue[][],
): Generator<Record<string, FeatureValue>> {
  const idx = names.map(() => 0);
  for (;;) {
    yield Object.fromEntries(names.map((n, i) => [n, values[i]![idx[i]!]!]));
    let k = names.length - 1;
    while (k >= 0 && idx[k] === values[k]!.length - 1) idx[k--] = 0;
    if (k < 0) return;
    idx[k]! += 1;
  }
}

/** Findings for one routing port; `features` are the declared ones (undeclared ones make no finding). */
export function checkPort(port: RoutedPort, features: readonly FeatureDef[]): PortFinding[] {
  if (!port.conditional) return [];
  const out: PortFinding[] = [];
  const byName = new Map(features.map((f) => [f.name, f]));
  const names: string[] = [];
  for (const e of port.edges) if (e.condition) conditionFeatures(e.condition, names);
  if (names.some((n) => !byName.has(n))) return out; // unknown-feature is reported by the validator
  const slotEdges = port.edges.filter((e) => e.condition && hasSlotComparison(e.condition)).map((e) => e.id);
  if (slotEdges.length > 0) out.push({ kind: 'not-enumerable', edges: slotEdges });
  const domains = names.map((n) => byName.get(n)!.domain);
  const total = domains.reduce((p, d) => p * domainSize(d), 1);
  const values = domains.map((d) => domainValues(d, MAX_COMBINATIONS));
  if (total > MAX_COMBINATIONS || values.some((v) => !v)) {
    out.push({ kind: 'too-many', features: names, total });
    return out;
  }
  let overlap: Extract<PortFinding, { kind: 'overlap' }> | undefined;
  let gap: Extract<PortFinding, { kind: 'gap' }> | undefined;
  for (const combo of combinations(names, values as FeatureValue[][])) {
    const truths: Truth[] = port.edges.map((e) => (e.condition ? evalCondition3(e.condition, combo) : true));
    const holding = port.edges.filter((_, i) => truths[i] === true).map((e) => e.id);
    if (holding.length >= 2) {
      if (overlap) overlap.count += 1;
      else overlap = { kind: 'overlap', edges: holding, example: combo, count: 1, total };
    }
    if (truths.every((t) => t === false)) {
      if (gap) gap.count += 1;
      else gap = { kind: 'gap', edges: port.edges.map((e) => e.id), example: combo, count: 1, total };
    }
  }
  if (overlap) out.push(overlap);
  if (gap) out.push(gap);
  return out;
}

const quote = (ids: readonly string[]) => ids.map((i) => `'${i}'`).join(', ');

/** The checker's message for a finding (the validator adds node and edge ids to the issue). */
export function findingMessage(port: RoutedPort, f: PortFinding): string {
  const where = `routing node '${port.node}' (port '${port.port}')`;
  switch (f.kind) {
    case 'overlap':
      return `${where}: with ${featuresText(f.example)} the conditions of edges ${quote(f.edges)} all hold — an ambiguous route (${f.count} of ${f.total} combinations overlap)`;
    case 'gap':
      return `${where}: with ${featuresText(f.example)} no condition of edges ${quote(f.edges)} holds — a missing route (${f.count} of ${f.total} combinations have none)`;
    case 'not-enumerable':
      return `${where}: slot comparisons on edges ${quote(f.edges)} are not enumerable; the checker treats them as unknown and reports no overlap or gap that depends on them`;
    case 'too-many':
      return `${where}: ${f.total} combinations of ${f.features.join(', ')} (more than ${MAX_COMBINATIONS}); overlaps and gaps were not checked`;
  }
}

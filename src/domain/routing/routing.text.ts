// One-line texts for conditions, effects and feature values in plain ASCII: the `route` event's
// reason, error messages, the checker's findings — text that lands in logs, CLI output and JSON, so
// it stays greppable (`phase in [explore]`, `and`, `==`). The editor's edge chips use a compact
// symbolic notation of their own (src/app/routing/conditionText.ts: `phase ∈ {explore}`, `∧`),
// fitted to a label a few characters wide; the two are different on purpose.
import type { Condition, Effect, FeatureValue } from './routing.schema.ts';
import { showFeatureValue, type FeatureState } from './routing.eval.ts';

const value = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** `phase in [explore, exploit]`, `phase == done`, `(a and b)`, `not a`, `mem.score $.x >= 2`. */
export function conditionText(c: Condition): string {
  if ('all' in c)
    return c.all.length === 1 ? conditionText(c.all[0]!) : `(${c.all.map(conditionText).join(' and ')})`;
  if ('any' in c)
    return c.any.length === 1 ? conditionText(c.any[0]!) : `(${c.any.map(conditionText).join(' or ')})`;
  if ('not' in c) return `not ${conditionText(c.not)}`;
  if ('slot' in c) return `${c.slot}${c.path === '$' ? '' : ` ${c.path}`} ${c.op} ${JSON.stringify(c.value)}`;
  if ('in' in c) return `${c.feature} in [${c.in.map(value).join(', ')}]`;
  return `${c.feature} == ${value(c.eq)}`;
}

/** `assign phase=exploit`, `allow phase explore→exploit | exploit→done`, `unconstrained`. */
export function effectText(e: Effect): string {
  if (e === 'unconstrained') return 'unconstrained';
  const parts: string[] = [];
  for (const [f, v] of Object.entries(e.assign ?? {})) parts.push(`assign ${f}=${value(v)}`);
  for (const [f, pairs] of Object.entries(e.allow ?? {}))
    parts.push(`allow ${f} ${pairs.map(([a, b]) => `${value(a)}→${value(b)}`).join(' | ') || '(none)'}`);
  return parts.join('; ') || 'no changes';
}

/** `phase=explore, armed=unset` for the named features (all when `names` is omitted). */
export function featuresText(
  state: FeatureState | Readonly<Record<string, FeatureValue>>,
  names?: readonly string[],
): string {
  const keys = names ?? Object.keys(state);
  if (keys.length === 0) return 'no features';
  return keys.map((k) => `${k}=${showFeatureValue(state[k])}`).join(', ');
}

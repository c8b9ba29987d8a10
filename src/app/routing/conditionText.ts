// Conditions and effects of routed edges as short text: the canvas chip (`phase ∈ {explore, return}`),
// its tooltip, the edge inspector's summary. Pure, so the wording is tested without React. Symbolic on
// purpose (a chip is a few characters wide); logs and errors use the plain ASCII text of
// src/domain/routing/routing.text.ts.
import type { Condition, Effect, FeatureDomain, FeatureValue } from '../../domain/routing/routing.schema.ts';

/** A feature value as the chip shows it: bare words unquoted, anything else as JSON. */
export function valueText(v: unknown): string {
  if (typeof v === 'string') return /^[\w.-]+$/.test(v) ? v : JSON.stringify(v);
  if (v === undefined) return 'undefined';
  return JSON.stringify(v) ?? String(v);
}

/** `$.a.b` → `.a.b`, `$[0]` → `[0]`, `$` → `` (the slot itself). */
function pathSuffix(path: string): string {
  return path === '$' ? '' : path.slice(1);
}

const OP_TEXT: Record<string, string> = { '==': '=', '!=': '≠', '<=': '≤', '>=': '≥' };

function setText(values: readonly FeatureValue[]): string {
  return `{${values.map(valueText).join(', ')}}`;
}

/** A feature's domain as the inspector and State panel show it: `{explore, exploit}`, `bool`, `0…9`. */
export function domainText(d: FeatureDomain): string {
  if (d === 'bool') return 'bool';
  if ('enum' in d) return setText(d.enum);
  return `${d.int[0]}…${d.int[1]}`;
}

/** The whole condition on one line; nested combinators get parentheses. */
export function conditionText(c: Condition): string {
  const inner = (x: Condition) => ('all' in x || 'any' in x ? `(${conditionText(x)})` : conditionText(x));
  if ('all' in c) return c.all.map(inner).join(' ∧ ');
  if ('any' in c) return c.any.map(inner).join(' ∨ ');
  if ('not' in c) {
    const n = c.not;
    if ('feature' in n && 'in' in n) return `${n.feature} ∉ ${setText(n.in)}`;
    if ('feature' in n && 'eq' in n) return `${n.feature} ≠ ${valueText(n.eq)}`;
    return `¬(${conditionText(n)})`;
  }
  if ('slot' in c) {
    const op = OP_TEXT[c.op] ?? c.op;
    return `${c.slot}${pathSuffix(c.path)} ${op} ${valueText(c.value)}`;
  }
  if ('eq' in c) return `${c.feature} = ${valueText(c.eq)}`;
  return c.in.length === 1 ? `${c.feature} = ${valueText(c.in[0])}` : `${c.feature} ∈ ${setText(c.in)}`;
}

/** What taking the edge does to the features, or '' for an edge without effect. */
export function effectText(e: Effect | undefined): string {
  if (e === undefined) return '';
  if (e === 'unconstrained') return 'any change';
  const parts: string[] = [];
  for (const [f, v] of Object.entries(e.assign ?? {})) parts.push(`${f} := ${valueText(v)}`);
  for (const [f, pairs] of Object.entries(e.allow ?? {}))
    parts.push(`${f}: ${pairs.map(([a, b]) => `${valueText(a)}→${valueText(b)}`).join(' | ')}`);
  return parts.join(', ');
}

/** Cuts a long text to `max` characters with an ellipsis (the full text goes in the tooltip). */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}

export interface ChipText {
  /** What the chip shows (clipped). */
  short: string;
  /** Condition and effect in full, for the tooltip. */
  full: string;
}

/** The label chip of a routed edge; null for an edge with neither condition nor effect. */
export function chipText(edge: { condition?: Condition; effect?: Effect }, max = 36): ChipText | null {
  if (edge.condition === undefined && edge.effect === undefined) return null;
  const eff = effectText(edge.effect);
  if (edge.condition === undefined) return { short: `⇒ ${clip(eff, max)}`, full: `always  ⇒  ${eff}` };
  const cond = conditionText(edge.condition);
  const full = eff ? `${cond}  ⇒  ${eff}` : cond;
  const short = eff ? `${clip(cond, max)} ⇒ ${clip(eff, Math.max(12, max / 2))}` : clip(cond, max);
  return { short, full };
}

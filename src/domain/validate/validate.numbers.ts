// Numbers the engine would misread: a budget below 1 still runs one step (a loop decides to stop
// only after an iteration), so `step_budget: -5` ran a step instead of being refused; `n: 1e9`
// completions made the offline provider allocate a billion copies. Each must be an integer in its
// range (absent or null means the default); the error names the exact JSON path.
import type { ValidateCtx } from './validate.ctx.ts';

interface NumberRule {
  /** Node type the config key belongs to. */
  type: string;
  key: string;
  min: number;
  max?: number;
  what: string;
}

/** Largest `n` an OpenAI-compatible endpoint takes. */
export const MAX_COMPLETIONS = 128;

const NODE_RULES: readonly NumberRule[] = [
  { type: 'iterIn', key: 'step_budget', min: 1, what: 'the iterations of this loop' },
  { type: 'llmCall', key: 'n', min: 1, max: MAX_COMPLETIONS, what: 'the completions per call' },
  { type: 'llmCall', key: 'max_tokens', min: 1, what: 'the tokens per completion' },
  { type: 'historyLog', key: 'max_entries', min: 1, what: 'the entries kept' },
];

const inRange = (v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): boolean =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

const range = (min: number, max?: number) =>
  max === undefined ? `at least ${min}` : `from ${min} to ${max}`;

export function checkNumbers(ctx: ValidateCtx): void {
  const b = ctx.graph.step_budget;
  if (b !== null && !inRange(b, 1))
    ctx.error(
      'invalid-step-budget',
      '.step_budget',
      `step_budget must be an integer of at least 1 (or null for the runtime default), got ${JSON.stringify(b)}: the run would still make one step`,
    );
  ctx.graph.nodes.forEach((n, i) => {
    for (const rule of NODE_RULES) {
      if (n.type !== rule.type) continue;
      const v = n.config[rule.key];
      if (v === undefined || v === null || inRange(v, rule.min, rule.max)) continue;
      ctx.error(
        rule.key === 'step_budget' ? 'invalid-step-budget' : 'invalid-config-number',
        `.nodes[${i}].config.${rule.key}`,
        `node '${n.id}' ${rule.key} (${rule.what}) must be an integer ${range(rule.min, rule.max)}, got ${JSON.stringify(v)}`,
        { nodeId: n.id },
      );
    }
  });
}

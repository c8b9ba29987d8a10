// Routing nodes: `phaseSwitch` proposes a feature value (docs/routing.md) — the `value` input when it
// arrives, else the schedule entry for the current root step — and passes its trigger on. Whether the
// proposal sticks is decided by the effects of its outgoing edges when the visit ends.
import type { FeatureValue } from '../../domain/routing/routing.schema.ts';
import { cfgString, type NodeHandler } from '../handler.types.ts';

interface ScheduleEntry {
  value: FeatureValue;
  until_step?: number;
}

function scheduled(nodeId: string, schedule: unknown, step: number): FeatureValue {
  if (!Array.isArray(schedule) || schedule.length === 0)
    throw new Error(
      `phaseSwitch '${nodeId}': config.schedule must be a non-empty list of {value, until_step?}`,
    );
  for (const raw of schedule as ScheduleEntry[]) {
    const until = raw?.until_step;
    if (typeof until !== 'number' || step <= until) return raw.value;
  }
  return (schedule[schedule.length - 1] as ScheduleEntry).value;
}

export const phaseSwitch: NodeHandler = {
  fire(inputs, ctx) {
    const feature = cfgString(ctx.node.config, 'feature', 'phase');
    const value = Object.hasOwn(inputs, 'value')
      ? (inputs.value as FeatureValue)
      : scheduled(ctx.node.id, ctx.node.config.schedule, ctx.step);
    ctx.proposeFeature(feature, value);
    return { outputs: { trigger: inputs.trigger ?? inputs.value ?? null, phase: value } };
  },
};

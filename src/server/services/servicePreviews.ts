// Service-owned container previews, per run. A service answers each call with previews of the
// containers it owns; its state is process-global (the reference's services keep it across runs), so
// the previews a call returned belong to the run (execution id) that made the call, and a run that
// never called a service shows none of its containers — in nav_step, `…/state?step=N`, the State
// panel and run_result. The last few runs' previews are kept; a finished run's are in its log.
import type { ServiceContainer } from '../../domain/services/manifest.ts';

export type Previews = Record<string, { label?: string; states?: Record<string, unknown> }>;

export interface OwnedPreview {
  label: string;
  owner: string;
  states: Record<string, unknown>;
}

/** Runs whose previews are kept (a run's own are replaced on each call, so this bounds memory). */
const RUNS_KEPT = 64;

export class RunPreviews {
  private readonly byRun = new Map<string, Previews>();

  /** Merges a call's previews into its run's (container by container: the newest wins). */
  merge(runId: string, previews: Previews): void {
    const had = this.byRun.get(runId);
    this.byRun.delete(runId);
    this.byRun.set(runId, { ...had, ...previews });
    if (this.byRun.size > RUNS_KEPT) this.byRun.delete(this.byRun.keys().next().value!);
  }

  of(runId: string): Previews {
    return this.byRun.get(runId) ?? {};
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A service's previews in the nav_step container shape, with `owner` = the service. The reference's
 * previews carry no `lifetime` (nor always `type`): both come from the manifest's declaration.
 */
export function ownedContainerPreviews(
  service: string,
  declared: readonly ServiceContainer[],
  previews: Previews,
): Record<string, OwnedPreview> {
  const out: Record<string, OwnedPreview> = {};
  for (const [cid, p] of Object.entries(previews)) {
    const slots = declared.find((c) => c.id === cid)?.states ?? {};
    const states: Obj = {};
    for (const [slot, st] of Object.entries(p.states ?? {})) {
      const s = isObj(st) ? st : {};
      states[slot] = {
        type: slots[slot]?.type ?? 'lastWrite',
        value_type: slots[slot]?.value_type ?? 'ANY',
        ...s,
        lifetime: s.lifetime ?? slots[slot]?.lifetime ?? 'forever',
      };
    }
    out[cid] = { label: p.label ?? cid, owner: service, states };
  }
  return out;
}

/**
 * Service-owned containers as run_result lists containers (`{cid: {slot: value}}`): the preview's
 * `value` when it carries one, else its `preview` text (an accumulator's preview is a summary, the
 * full list stays in the service).
 */
export function resultValues(owned: Record<string, OwnedPreview>): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [cid, c] of Object.entries(owned)) {
    const slots: Record<string, unknown> = {};
    for (const [slot, st] of Object.entries(c.states)) {
      const s = isObj(st) ? st : {};
      slots[slot] = 'value' in s ? s.value : (s.preview ?? null);
    }
    out[cid] = slots;
  }
  return out;
}

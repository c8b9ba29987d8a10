// Re-run without paying twice (docs/replay.md): a fork answers its calls from its parent's recording
// while they are the same calls, and calls live from the first one that is not (or, given
// `untilStep`, from the first step that has one, found beforehand: that step runs live whole). "The same call" is
// the same place — step[.iteration], node, ordinal within the fire — and the same request hash, both
// read off the idempotency keys (effects.ts), so the two runs' lineages may differ. After the first
// difference nothing more is reused, even a call whose request happens to match again: the parent's
// answer at a later step may depend on state (a service's, a container's) the difference changed.
// One rule for the two places that need it: the fork's live effect store (server runs/) and the
// preview that replays the recording offline up to the first difference (server replay/), so the
// preview and the fork agree by construction.
import type { EffectCall, ReusedFrom } from './effects.ts';

export type { ReusedFrom } from './effects.ts';

/** A recorded call the fork may reuse (what a store keeps: its key, its run, its answer). */
export interface ReusableCall {
  key: string;
  run_id: string;
  response?: unknown;
}

/** `at:node:n` and the request hash of a key `lineage:at:node:n:hash`. */
function splitKey(key: string, lineage: string): { place: string; hash: string } | undefined {
  if (!key.startsWith(`${lineage}:`)) return undefined;
  const rest = key.slice(lineage.length + 1);
  const cut = rest.lastIndexOf(':');
  return cut < 0 ? undefined : { place: rest.slice(0, cut), hash: rest.slice(cut + 1) };
}

export class ReuseUntilDivergence {
  /** place → the recorded calls there (several when forks of a shared lineage called it too). */
  private readonly byPlace = new Map<string, { hash: string; call: ReusableCall }[]>();
  /** The first call that was not the recorded one: from it on every call is live. */
  diverged: EffectCall | undefined;
  reused = 0;
  /** The step of each reused call, in order. */
  readonly reusedSteps: number[] = [];

  /**
   * @param recorded the parent's answered calls after the fork point, under `sourceLineage`;
   *   those of `preferRun` (the parent itself) win over an ancestor's at the same place.
   * @param ownLineage the lineage the fork's keys are made under.
   * @param untilStep nothing is reused at this step or later: the first step with a call that
   *   differs, found beforehand by the preview, so that step runs live as a whole (a service that
   *   keeps state sees every call of it; the run manager puts that state back first).
   */
  constructor(
    recorded: readonly ReusableCall[],
    sourceLineage: string,
    private readonly ownLineage: string,
    preferRun?: string,
    private readonly untilStep = Number.POSITIVE_INFINITY,
  ) {
    for (const call of recorded) {
      if (call.response === undefined) continue; // only intended: the parent died during the call
      const k = splitKey(call.key, sourceLineage);
      if (!k) continue;
      const list = this.byPlace.get(k.place) ?? [];
      if (call.run_id === preferRun) list.unshift({ hash: k.hash, call });
      else list.push({ hash: k.hash, call });
      this.byPlace.set(k.place, list);
    }
  }

  /** How many recorded calls there are to reuse. */
  get available(): number {
    let n = 0;
    for (const l of this.byPlace.values()) n += l.length;
    return n;
  }

  /** The recorded answer for `call`, or undefined (then this and every later call is live). */
  take(call: EffectCall): { response: unknown; from: ReusedFrom } | undefined {
    if (this.diverged) return undefined;
    const k = splitKey(call.key, this.ownLineage);
    const hit = call.step < this.untilStep && k && this.byPlace.get(k.place)?.find((r) => r.hash === k.hash);
    if (!hit) {
      this.diverged = call;
      return undefined;
    }
    this.reused++;
    this.reusedSteps.push(call.step);
    return { response: hit.call.response ?? null, from: { run_id: hit.call.run_id, key: hit.call.key } };
  }
}

// Evaluates graph-test expectations over the per-step state of a run. Pure: the host feeds the
// engine's events to a StepRecorder and hands its steps to `evaluate`.
//
// A step's state is its nav_step snapshot (taken before that step's step_end clear, so a
// step-lifetime slot shows what the step wrote). A slot is *cleared at step N* when a signal of step N
// (any `signal` event after nav_step N-1, step_end included) or nav_step N's `cleared` names it;
// clears after the last nav_step (run_end) count for the last step.
import type { ClearedRef, ContainerSnapshot, EngineEvent } from '../protocol/protocol.ts';
import { deepEqual } from '../state/reducers.ts';
import type { Expectation, GraphTest } from './graphTest.schema.ts';
import { walkPath, type Lookup } from './slotPath.ts';

export interface StepRecord {
  step: number;
  containers: Record<string, ContainerSnapshot>;
  cleared: ClearedRef[];
}

/**
 * Collects nav_step snapshots and the clears of each step from an event stream. `keep` limits which
 * steps are held (the last one is always held), so a long run does not keep every snapshot.
 */
export class StepRecorder {
  private readonly held: StepRecord[] = [];
  private pending: ClearedRef[] = [];
  private latest: StepRecord | undefined;

  constructor(private readonly keep: (step: number) => boolean = () => true) {}

  add(e: EngineEvent): void {
    if (e.type === 'signal') this.pending.push(...e.data.cleared);
    else if (e.type === 'nav_step') {
      if (this.latest && !this.keep(this.latest.step)) this.held.pop();
      this.latest = {
        step: e.data.step,
        containers: e.data.containers,
        cleared: dedupe([...this.pending, ...e.data.cleared]),
      };
      this.held.push(this.latest);
      this.pending = [];
    }
  }

  /** The held steps, ascending; trailing clears (run_end) join the last step. */
  steps(): StepRecord[] {
    if (this.latest && this.pending.length > 0) {
      this.latest.cleared = dedupe([...this.latest.cleared, ...this.pending]);
      this.pending = [];
    }
    return [...this.held];
  }
}

const refKey = (r: ClearedRef) => JSON.stringify([r.container, r.slot, r.key ?? null]);

function dedupe(refs: ClearedRef[]): ClearedRef[] {
  const seen = new Set<string>();
  return refs.filter((r) => !seen.has(refKey(r)) && seen.add(refKey(r)));
}

export interface RunOutcome {
  /** Final status of the run (`done`, `stopped` after the step limit, `error`, …). */
  status: string;
  /** Root steps completed. */
  steps: number;
  error?: string;
}

export interface ExpectationResult {
  /** Index in the test's `expect` list; -1 for the implicit "run ends without error". */
  index: number;
  title: string;
  ok: boolean;
  /** The root step the check looked at (`last` resolved), when there was one. */
  step?: number;
  slot?: string;
  expected: unknown;
  actual?: unknown;
  message?: string;
}

const MAX_TITLE_VALUE = 60;

function short(v: unknown): string {
  const s = JSON.stringify(v) ?? 'undefined';
  return s.length > MAX_TITLE_VALUE ? `${s.slice(0, MAX_TITLE_VALUE)}…` : s;
}

export function titleOf(e: Expectation): string {
  if (e.name !== undefined) return e.name;
  const at = e.step === 'last' ? 'at the last step' : `at step ${e.step}`;
  const c = e.check;
  const what =
    c.kind === 'equals'
      ? `equals ${short(c.value)}`
      : c.kind === 'length'
        ? `has length ${c.value}`
        : c.kind === 'matches'
          ? `matches /${c.value}/`
          : c.value
            ? 'is cleared'
            : 'is not cleared';
  return `${e.slot} ${at} ${what}`;
}

type SlotFind =
  { found: true; snapshot: ContainerSnapshot['states'][string] } | { found: false; message: string };

function findSlot(rec: StepRecord, container: string, slot: string): SlotFind {
  const c = rec.containers[container];
  if (!c) {
    const ids = Object.keys(rec.containers);
    return {
      found: false,
      message: `no container '${container}' at step ${rec.step} (containers: ${ids.join(', ') || 'none'})`,
    };
  }
  const s = c.states[slot];
  if (!s)
    return {
      found: false,
      message: `container '${container}' has no slot '${slot}' (slots: ${Object.keys(c.states).join(', ') || 'none'})`,
    };
  return { found: true, snapshot: s };
}

/** The value a slot path names in one step's snapshot. */
export function lookup(rec: StepRecord, e: Expectation): Lookup {
  const { container, slot, key, path } = e.target;
  const s = findSlot(rec, container, slot);
  if (!s.found) return s;
  let where = `${container}.${slot}`;
  let value: unknown = s.snapshot.value;
  if (key !== undefined) {
    const parts = s.snapshot.keyed ?? {};
    if (!Object.hasOwn(parts, key)) {
      const keys = Object.keys(parts);
      return {
        found: false,
        message: `${where} has no partition '${key}' at step ${rec.step} (partitions: ${keys.slice(0, 10).join(', ') || 'none'})`,
      };
    }
    value = parts[key];
    where += `[${key}]`;
  }
  return walkPath(value, path, where);
}

/** A string as is, anything else as JSON (null → "null"). */
export const textForm = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

function lengthOf(v: unknown): number | undefined {
  if (Array.isArray(v) || typeof v === 'string') return v.length;
  if (typeof v === 'object' && v !== null) return Object.keys(v).length;
  return undefined;
}

function wasCleared(rec: StepRecord, e: Expectation): boolean {
  const { container, slot, key } = e.target;
  return rec.cleared.some((r) => r.container === container && r.slot === slot && r.key === key);
}

function checkOne(rec: StepRecord, e: Expectation): Pick<ExpectationResult, 'ok' | 'actual' | 'message'> {
  const c = e.check;
  if (c.kind === 'cleared') {
    // The slot must exist (a typo is a failure, not a vacuous "not cleared"); an evicted partition need not.
    const slot = findSlot(rec, e.target.container, e.target.slot);
    if (!slot.found) return { ok: false, message: slot.message };
    const actual = wasCleared(rec, e);
    const ok = actual === c.value;
    const refs = rec.cleared.map((r) => `${r.container}.${r.slot}${r.key !== undefined ? `[${r.key}]` : ''}`);
    return {
      ok,
      actual,
      ...(ok ? {} : { message: `cleared at step ${rec.step}: ${refs.length ? refs.join(', ') : 'nothing'}` }),
    };
  }
  const found = lookup(rec, e);
  if (!found.found) return { ok: false, message: found.message };
  const v = found.value;
  if (c.kind === 'equals') return { ok: deepEqual(v, c.value), actual: v };
  if (c.kind === 'length') {
    const n = lengthOf(v);
    if (n === undefined)
      return {
        ok: false,
        actual: v,
        message: `the value has no length (it is ${v === null ? 'null' : typeof v})`,
      };
    return { ok: n === c.value, actual: n };
  }
  const text = textForm(v);
  return { ok: new RegExp(c.value).test(text), actual: text };
}

function expectedOf(e: Expectation): unknown {
  return e.check.kind === 'matches' ? `/${e.check.value}/` : e.check.value;
}

/** One result per expectation, then "run ends without error". */
export function evaluate(
  test: GraphTest,
  steps: readonly StepRecord[],
  run: RunOutcome,
): ExpectationResult[] {
  const byStep = new Map(steps.map((s) => [s.step, s]));
  const last = steps.at(-1);
  const ended = `the run ended after ${run.steps} step${run.steps === 1 ? '' : 's'} (${run.status}${run.error ? `: ${run.error}` : ''})`;
  const results: ExpectationResult[] = test.expect.map((e, index) => {
    const base = { index, title: titleOf(e), slot: e.slot, expected: expectedOf(e) };
    const rec = e.step === 'last' ? last : byStep.get(e.step);
    if (!rec) {
      const which = e.step === 'last' ? 'no step was recorded' : `there is no step ${e.step}`;
      return { ...base, ok: false, message: `${ended}; ${which}` };
    }
    return { ...base, step: rec.step, ...checkOne(rec, e) };
  });
  const runOk = run.status !== 'error';
  results.push({
    index: -1,
    title: 'run ends without error',
    ok: runOk,
    step: run.steps,
    expected: 'no error',
    actual: run.status,
    ...(runOk ? {} : { message: ended }),
  });
  return results;
}

/** Steps a test needs held: every numbered step it names (the last step is held anyway). */
export function stepsNeeded(test: GraphTest): (step: number) => boolean {
  const wanted = new Set(test.expect.flatMap((e) => (typeof e.step === 'number' ? [e.step] : [])));
  return (step) => wanted.has(step);
}

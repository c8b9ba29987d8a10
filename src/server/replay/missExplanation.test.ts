// Why a replayed call has no recorded answer: the recorded call of the same node and step is found
// and what differs is named (config, inputs, another call), or the recording's absence is said.
import { describe, expect, it } from 'vitest';
import type { EffectCall } from '../../engine/effects.ts';
import type { RecordedCall } from '../db/effectStore.ts';
import { explainMiss, fieldChanges, shortValue } from './missExplanation.ts';

const L = 'exec_1';
const req = (config: Record<string, unknown>, inputs: Record<string, unknown> = { position: [1, 2] }) => ({
  service: 'gridworld',
  fn: 'gridworld__policy',
  inputs,
  config,
});
const recorded = (step: number, config: Record<string, unknown>, index = 0): RecordedCall => ({
  key: `${L}:${step}:policy:${index}:h${step}`,
  run_id: L,
  kind: 'service',
  step,
  node_id: 'policy',
  index,
  request: req(config),
  response: { answer: { outputs: {} }, writes: [] },
});
const call = (step: number, request: unknown, index = 0): EffectCall => ({
  key: `${L}:${step}:policy:${index}:other`,
  step,
  node_id: 'policy',
  index,
  kind: 'service',
  request,
});

describe('explainMiss', () => {
  const calls = [1, 2, 3].map((s) => recorded(s, { epsilon: 0.15, seed: 3 }));

  it('names the config field that changed, old → new', () => {
    expect(explainMiss(call(3, req({ epsilon: 0.6, seed: 3 })), L, calls)).toBe(
      "no recorded answer for node 'policy' at step 3: its config differs: epsilon 0.15 → 0.6",
    );
  });

  it('names changed inputs', () => {
    expect(explainMiss(call(2, req({ epsilon: 0.15, seed: 3 }, { position: [1, 3] })), L, calls)).toBe(
      "no recorded answer for node 'policy' at step 2: its inputs differ: position [1,2] → [1,3]",
    );
  });

  it('says when the recorded run made no call there or none at all', () => {
    expect(explainMiss(call(7, req({})), L, calls)).toBe(
      "no recorded answer for node 'policy' at step 7: the recorded run called it at steps 1–3, not at step 7",
    );
    expect(explainMiss({ ...call(1, req({})), node_id: 'planner' }, L, calls)).toMatch(
      /^no recorded answer for node 'planner' at step 1: the recorded run made no service call from that node/,
    );
  });

  it('says when the node made more calls than recorded in the step', () => {
    expect(explainMiss(call(1, req({ epsilon: 0.15, seed: 3 }), 1), L, calls)).toBe(
      "no recorded answer for node 'policy' at step 1: the recorded run made 1 call from it there, this is call 2",
    );
  });
});

describe('value texts', () => {
  it('shortens arrays, bytes and long values; lists added and removed keys', () => {
    expect(shortValue({ dtype: 'uint8', shape: [5, 5, 3], data: new Uint8Array(75) })).toBe(
      'uint8 array[5×5×3]',
    );
    expect(shortValue(new Uint8Array(4))).toBe('bytes[4]');
    expect(shortValue('x'.repeat(100))).toHaveLength(60);
    expect(fieldChanges({ a: 1 }, { b: 2 })).toBe('a 1 → absent, b absent → 2');
  });
});

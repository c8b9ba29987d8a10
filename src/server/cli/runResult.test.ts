// `statewire run --json`: a script gets a run's outputs from the last line (the run_result event).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventEnvelopeSchema, RunResultDataSchema } from '../../domain/protocol/protocol.ts';
import { runCommand, type CliIo } from './run.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'statewire-result-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function runJson(graph: object, extra: string[] = []) {
  const file = join(dir, 'g.json');
  writeFileSync(file, JSON.stringify(graph));
  const out: string[] = [];
  const io: CliIo = { out: (l) => void out.push(l), err: () => undefined };
  const code = await runCommand([file, '--json', ...extra], io);
  const last = EventEnvelopeSchema.parse(JSON.parse(out.at(-1)!));
  return {
    code,
    out,
    last,
    result: last.type === 'run_result' ? RunResultDataSchema.parse(last.data) : null,
  };
}

/** Nested loops (outer 3 × inner 2); memory keyed by the inner iterIn's `step`; two graphOuts. */
const NESTED = {
  name: 'nested',
  step_budget: 3,
  eval_graph: true,
  nodes: [
    { id: 'o_in', type: 'iterIn', config: { version: 3, pairedWith: 'o_out', initPorts: [] } },
    {
      id: 'i_in',
      type: 'iterIn',
      config: { version: 3, pairedWith: 'i_out', initPorts: [{ name: 'k' }], step_budget: 2 },
    },
    { id: 'mem', type: 'stateWrite', config: { container: 'memory', state: 'by_step' } },
    { id: 'i_out', type: 'iterOut', config: { pairedWith: 'i_in', ports: [{ name: 'v' }] } },
    { id: 'o_out', type: 'iterOut', config: { pairedWith: 'o_in', ports: [{ name: 'v' }] } },
    { id: 'answer', type: 'graphOut', config: { portName: 'answer' } },
    { id: 'steps', type: 'graphOut', config: { portName: 'steps' } },
  ],
  edges: [
    { id: 'e1', source: 'o_in', target: 'i_in', sourceHandle: 'step', targetHandle: 'init_k' },
    { id: 'e2', source: 'i_in', target: 'mem', sourceHandle: 'step', targetHandle: 'key' },
    { id: 'e3', source: 'i_in', target: 'mem', sourceHandle: 'iteration', targetHandle: 'value' },
    { id: 'e4', source: 'mem', target: 'i_out', sourceHandle: 'value', targetHandle: 'v' },
    { id: 'e5', source: 'i_out', target: 'o_out', sourceHandle: 'final_v', targetHandle: 'v' },
    { id: 'e6', source: 'o_out', target: 'answer', sourceHandle: 'final_v', targetHandle: 'value' },
    { id: 'e7', source: 'o_out', target: 'steps', sourceHandle: 'final_stop', targetHandle: 'value' },
  ],
  containers: [{ id: 'memory', states: { by_step: { type: 'accumulator' } } }],
  access_grants: [{ id: 'g', node_id: 'mem', container_id: 'memory' }],
};

describe('statewire run --json: the last line is run_result', () => {
  it('with the graphOut values by portName and the containers (keys are root step numbers)', async () => {
    const { code, result } = await runJson(NESTED);
    expect(code).toBe(0);
    expect(result).toEqual({
      status: 'done',
      steps: 3,
      outputs: { answer: 1, steps: true },
      containers: { memory: { by_step: { '0': [0, 1], '1': [0, 1], '2': [0, 1] } } },
      keyed: { memory: ['by_step'] },
    });
  });

  it('an error run: exit 1, the last line says error and why', async () => {
    const bad = {
      ...NESTED,
      nodes: NESTED.nodes.map((n) =>
        n.id === 'mem' ? { ...n, config: { container: 'memory', state: 'typo' } } : n,
      ),
    };
    const { code, result } = await runJson(bad);
    expect(code).toBe(1);
    expect(result?.status).toBe('error');
    expect(result?.error).toContain("write of undeclared slot 'typo'");
  });

  it('exactly one run_result, after every other event', async () => {
    const { out } = await runJson(NESTED, ['--steps', '2']);
    const types = out.map((l) => (JSON.parse(l) as { type: string }).type);
    expect(types.filter((t) => t === 'run_result')).toHaveLength(1);
    expect(types.at(-1)).toBe('run_result');
    expect(JSON.parse(out.at(-1)!).data).toMatchObject({ status: 'stopped', steps: 2, stepLimit: 2 });
  });
});

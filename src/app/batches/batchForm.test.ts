import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.ts';
import { DEFAULT_FORM, parseBatchForm, parseOverrides, serverError } from './batchForm.ts';

const refused = (error: Record<string, unknown>) =>
  new ApiError(400, 'POST /api/batches → 400: …', { error: { code: 'invalid-set', ...error } });

describe('parseOverrides', () => {
  it('one path=value a line, trimmed; blank lines and # comments skipped; source lines kept', () => {
    const o = parseOverrides('  step_budget = 15 \n\n# a comment\nnodes.env.config.seed=3\n');
    expect(o.errors).toEqual([]);
    expect(o.sets).toEqual(['step_budget=15', 'nodes.env.config.seed=3']);
    expect(o.lines).toEqual([1, 4]);
  });

  it('keeps "=" inside the value and an empty value', () => {
    expect(parseOverrides('description=a=b\nname=').sets).toEqual(['description=a=b', 'name=']);
  });

  it('names the line of a missing "=", an empty path, a path with a space, a path set twice', () => {
    const o = parseOverrides('step_budget 15\n=3\nmy path=1\nstep_budget=1\nstep_budget=2');
    expect(o.errors.map((e) => [e.line, e.message])).toEqual([
      [1, 'line 1: "step_budget 15" is not path=value'],
      [2, 'line 2: the path before "=" is empty'],
      [3, 'line 3: the path "my path" contains a space'],
      [5, 'line 5: step_budget is already set on line 4'],
    ]);
    expect(o.errors.every((e) => e.field === 'overrides')).toBe(true);
    expect(o.sets).toEqual(['step_budget=1']);
  });
});

describe('parseBatchForm', () => {
  it('the defaults make a body: 8 episodes on 2 workers, no seed, no overrides', () => {
    expect(parseBatchForm(DEFAULT_FORM)).toEqual({ ok: true, body: { episodes: 8, workers: 2 }, lines: [] });
  });

  it('seed and overrides go into the body', () => {
    const r = parseBatchForm({ episodes: '8', workers: '', seed: '42', overrides: '\nstep_budget=15' });
    expect(r).toEqual({ ok: true, body: { episodes: 8, seed: 42, set: ['step_budget=15'] }, lines: [2] });
  });

  it('reports every bad field at once', () => {
    const r = parseBatchForm({ episodes: '', workers: '0', seed: '1.5', overrides: 'x' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => [e.field, e.message])).toEqual([
      ['episodes', 'Episodes is required'],
      ['workers', 'Workers must be between 1 and 64'],
      ['seed', 'Seed must be a whole number'],
      ['overrides', 'line 1: "x" is not path=value'],
    ]);
  });

  it('refuses a huge or fractional episode count', () => {
    for (const episodes of ['1000001', '2.5', '1e3', 'eight'])
      expect(parseBatchForm({ ...DEFAULT_FORM, episodes }).ok).toBe(false);
  });
});

describe('serverError', () => {
  const sets = ['step_budget=15', 'nodes.env.config.seed=x'];
  const lines = [1, 3];

  it('$.set[i] → the override on its source line, the path in the message', () => {
    const e = serverError(refused({ message: 'not a number', path: '$.set[1]' }), sets, lines);
    expect(e).toEqual({ field: 'overrides', line: 3, message: '$.set[1]: not a number', path: '$.set[1]' });
  });

  it('a graph path that one override sets → that override', () => {
    const e = serverError(
      refused({ message: 'unknown path step_budgett', path: 'step_budgett' }),
      ['step_budgett=15'],
      [2],
    );
    expect(e).toMatchObject({ field: 'overrides', line: 2, path: 'step_budgett' });
    expect(e.message).toBe('unknown path step_budgett');
  });

  it('no path, but the message names an override path → that override', () => {
    const e = serverError(refused({ message: '--set nodes.env.config.seed=x: not a number' }), sets, lines);
    expect(e).toMatchObject({ field: 'overrides', line: 3 });
  });

  it('$.episodes → the episodes field; anything else → the form', () => {
    expect(serverError(refused({ message: 'too many', path: '$.episodes' }), sets, lines)).toMatchObject({
      field: 'episodes',
      message: '$.episodes: too many',
    });
    expect(
      serverError(
        refused({ message: 'graph has 2 errors', path: '$.loop_definition.nodes[0]' }),
        sets,
        lines,
      ),
    ).toMatchObject({ field: 'general', message: '$.loop_definition.nodes[0]: graph has 2 errors' });
    expect(serverError(new Error('server unreachable: x'), sets, lines)).toEqual({
      field: 'general',
      message: 'server unreachable: x',
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { EpisodeRow } from './batch.types.ts';
import { compareBatches, type CompareInput } from './compare.ts';
import { comparisonSummaryCsv, comparisonToCsv, queryRows, queryToCsv } from './evaluationCsv.ts';

const row = (ep: number, seed: number, success: boolean, metrics: Record<string, number>): EpisodeRow => ({
  episode: ep,
  seed,
  run_id: `r${seed}_${ep}`,
  status: 'done',
  steps: 5,
  outputs: {},
  metrics,
  success,
});
const side = (id: string, rows: EpisodeRow[]): CompareInput => ({
  batch: {
    id,
    graph_name: 'g',
    graph_version: null,
    episodes: rows.length,
    workers: 1,
    seed: 0,
    sets: [],
    mode: 'embedded',
    status: 'done',
    created_at: '',
    ended_at: null,
    error: null,
  },
  rows,
});

/** RFC 4180 text → rows of cells (quoted fields may hold commas and doubled quotes). */
function parse(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < csv.length; i++) {
    const ch = csv[i]!;
    if (quoted && ch === '"' && csv[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') quoted = !quoted;
    else if (quoted) cell += ch;
    else if (ch === ',') endCell();
    else if (ch === '\r' && csv[i + 1] === '\n') {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else cell += ch;
  }
  return rows;
}

describe('comparison CSV', () => {
  const c = compareBatches(
    side('A', [row(1, 10, true, { reward: 1, 'odd,name': 2 }), row(2, 20, false, { reward: 0 })]),
    side('B', [row(1, 10, false, { reward: 0.5, 'odd,name': 3 }), row(3, 30, true, { reward: 1 })]),
  );

  it('has fixed columns then a/b/delta per metric, one line per pair then per unpaired episode', () => {
    const lines = parse(comparisonToCsv(c));
    expect(lines[0]).toEqual([
      'seed',
      'outcome',
      'episode_a',
      'episode_b',
      'run_a',
      'run_b',
      'status_a',
      'status_b',
      'steps_a',
      'steps_b',
      'success_a',
      'success_b',
      'metric',
      'delta',
      'a.odd,name',
      'b.odd,name',
      'delta.odd,name',
      'a.reward',
      'b.reward',
      'delta.reward',
    ]);
    expect(lines[1]).toEqual([
      '10',
      'regression',
      '1',
      '1',
      'r10_1',
      'r10_1',
      'done',
      'done',
      '5',
      '5',
      'true',
      'false',
      'reward',
      '-0.5',
      '2',
      '3',
      '1',
      '1',
      '0.5',
      '-0.5',
    ]);
    expect(lines[2]!.slice(0, 6)).toEqual(['20', 'only_a', '2', '', 'r20_2', '']);
    expect(lines[3]!.slice(0, 6)).toEqual(['30', 'only_b', '', '3', '', 'r30_3']);
    expect(lines[3]!.slice(-3)).toEqual(['', '1', '']);
    expect(lines.every((l) => l.length === lines[0]!.length)).toBe(true);
  });

  it('summarizes each metric and success in one table', () => {
    const lines = parse(comparisonSummaryCsv(c));
    expect(lines[0]).toEqual([
      'metric',
      'n',
      'mean_a',
      'mean_b',
      'mean_diff',
      'ci_lo',
      'ci_hi',
      'wins',
      'losses',
      'ties',
    ]);
    expect(lines.map((l) => l[0])).toEqual(['metric', 'odd,name', 'reward', 'success']);
    expect(lines[3]!.slice(0, 4)).toEqual(['success', '1', '1', '0']);
    expect(lines[3]!.slice(-3)).toEqual(['0', '1', '0']);
  });
});

describe('query CSV', () => {
  it('writes one line per hit with keys and nodes as JSON arrays and the value as JSON', () => {
    const rows = queryRows('b1', row(4, 44, true, {}), [
      { step: 3, keys: ['a b', 'c'], nodes: [], value: { x: [1, 'two'] } },
      { step: 5, keys: [], nodes: ['policy'] },
    ]);
    expect(parse(queryToCsv(rows))).toEqual([
      ['batch_id', 'episode', 'seed', 'run_id', 'step', 'keys', 'nodes', 'value'],
      ['b1', '4', '44', 'r44_4', '3', '["a b","c"]', '[]', '{"x":[1,"two"]}'],
      ['b1', '4', '44', 'r44_4', '5', '[]', '["policy"]', ''],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import type { EpisodeRow } from './batch.types.ts';
import { csvField, rowsToCsv } from './csv.ts';

describe('csvField', () => {
  it('quotes only what needs quoting, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r')).toBe('"cr\r"');
    expect(csvField('')).toBe('');
  });
});

describe('rowsToCsv', () => {
  it('writes a header, one line per row, metric columns sorted, outputs as JSON, CRLF line ends', () => {
    const rows: EpisodeRow[] = [
      {
        episode: 1,
        seed: 11,
        run_id: 'b_e1',
        status: 'done',
        steps: 20,
        outputs: { pose: { x: 1, y: 2 }, n: 3 },
        metrics: { n: 3, steps: 9 },
        success: true,
      },
      {
        episode: 2,
        seed: 22,
        run_id: 'b_e2',
        status: 'error',
        steps: 4,
        outputs: {},
        metrics: {},
        success: false,
        error: 'boom, "bad"',
      },
    ];
    expect(rowsToCsv(rows).split('\r\n')).toEqual([
      'episode,seed,run_id,status,steps,success,n,metrics.steps,outputs,error',
      '1,11,b_e1,done,20,true,3,9,"{""pose"":{""x"":1,""y"":2},""n"":3}",',
      '2,22,b_e2,error,4,false,,,{},"boom, ""bad"""',
      '',
    ]);
  });
});

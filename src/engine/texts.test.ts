// The run's text pool: a repeated text is kept as its first copy; long texts and a full pool pass.
import { describe, expect, it } from 'vitest';
import { deepFreeze } from './freeze.ts';
import { share, ShareMemo } from './share.ts';
import { TextPool } from './texts.ts';

describe('TextPool', () => {
  it('knows a text from its second sight on, not before', () => {
    const pool = new TextPool();
    const first = ['turn', 'left'].join(' ');
    expect(pool.earlier(first)).toBeUndefined();
    expect(pool.earlier(['turn', 'left'].join(' '))).toBe('turn left');
    expect(pool.earlier('x'.repeat(300))).toBeUndefined();
    expect(pool.earlier('x'.repeat(300))).toBeUndefined();
  });

  it('stops taking new texts when full, and still answers for the ones it holds', () => {
    const pool = new TextPool();
    for (let i = 0; i < 5000; i++) pool.earlier(`t${i}`);
    expect(pool.earlier('t1')).toBe('t1');
    expect(pool.earlier('t4999')).toBeUndefined();
    expect(pool.earlier('t4999')).toBeUndefined();
  });
});

describe('pooled texts in shared records', () => {
  it('records and lists holding pooled texts read exactly as the step wrote them', () => {
    const memo = () => new ShareMemo(pool);
    const pool = new TextPool();
    const said = (w: string) => ['turn', w].join(' ');
    let prev: unknown = undefined;
    const seen: string[] = [];
    for (const w of ['left', 'right', 'left', 'left', 'right', 'back']) {
      const cur = deepFreeze({ said: said(w), log: [said(w), { why: said(w) }], n: seen.length });
      const out = share(cur, prev, false, memo());
      expect(JSON.stringify(out)).toBe(JSON.stringify(cur));
      expect(Object.isFrozen(out)).toBe(true);
      seen.push(JSON.stringify(out));
      prev = out;
    }
    expect(seen[2]).toContain('"said":"turn left"');
  });
});

// The server's folder graph has no loops (the script CI runs), the cycle search finds a planted
// loop, and the ESLint floor rule refuses an upward import.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { serverFloors } from '../eslint/serverFloors.js';
import { cycles } from './server-folder-graph.mjs';

const edges = (pairs: [string, string][]) => {
  const m = new Map<string, Map<string, string[]>>();
  for (const [a, b] of pairs) {
    if (!m.has(a)) m.set(a, new Map());
    m.get(a)!.set(b, [`${a} → ${b}`]);
  }
  return m;
};

describe('server folder graph', () => {
  it('src/server has no folder loops (the script exits 0)', () => {
    const out = execFileSync(process.execPath, ['scripts/server-folder-graph.mjs'], { encoding: 'utf8' });
    expect(out).toContain('no cycles');
    expect(out).toContain('runs -> errors');
  });

  it('finds every loop once', () => {
    expect(
      cycles(
        edges([
          ['a', 'b'],
          ['b', 'c'],
          ['c', 'a'],
          ['c', 'd'],
        ]),
      ),
    ).toEqual([['a', 'b', 'c', 'a']]);
    expect(
      cycles(
        edges([
          ['a', 'b'],
          ['b', 'a'],
          ['b', 'c'],
          ['c', 'b'],
        ]),
      ),
    ).toHaveLength(2);
    expect(
      cycles(
        edges([
          ['a', 'b'],
          ['b', 'c'],
        ]),
      ),
    ).toEqual([]);
  });
});

describe('local/server-floors', () => {
  const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });
  const options = [{ root: 'src/server', floors: [['db'], ['runs'], ['http'], ['.'], ['cli']] }];
  const file = (p: string) => resolve('src/server', p);
  it('allows lower floors and refuses the same or higher ones', () => {
    tester.run('server-floors', serverFloors, {
      valid: [
        { code: "import { a } from '../db/a.ts';", filename: file('runs/x.ts'), options },
        { code: "import { a } from './y.ts';", filename: file('runs/x.ts'), options },
        { code: "import { a } from '../../domain/a.ts';", filename: file('runs/x.ts'), options },
        { code: "import { a } from '../app.ts';", filename: file('cli/serve.ts'), options },
      ],
      invalid: [
        { code: "import { a } from '../http/a.ts';", filename: file('runs/x.ts'), options, errors: 1 },
        { code: "export * from '../cli/a.ts';", filename: file('http/x.ts'), options, errors: 1 },
        { code: "const m = import('../app.ts');", filename: file('db/x.ts'), options, errors: 1 },
        { code: "import { a } from '../../runs/a.ts';", filename: file('db/pg/x.ts'), options, errors: 1 },
      ],
    });
  });
});

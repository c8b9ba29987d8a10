// TAP and JUnit text of `statewire test` for the cases the spawned CLI tests do not reach: directive
// characters in titles, characters XML cannot hold, long values.
import { describe, expect, it } from 'vitest';
import { junitXml, tapLines, xmlEscape, type FileOutcome } from './testReport.ts';

const outcome = (over: Partial<FileOutcome>): FileOutcome => ({
  file: 'a.test.json',
  results: [],
  errors: [],
  durationMs: 1500,
  ...over,
});

describe('tapLines', () => {
  it('escapes # (a TAP directive) and newlines in descriptions', () => {
    const lines = tapLines(
      outcome({
        results: [{ index: 0, title: 'c.s matches /a#b/\nnext', ok: true, expected: '/a#b/' }],
      }),
      7,
    );
    expect(lines).toEqual(['# a.test.json', 'ok 7 - a.test.json › c.s matches /a\\#b/ next']);
  });

  it('cuts a long diagnostic value and keeps it a YAML string', () => {
    const big = Array.from({ length: 1000 }, (_, i) => i);
    const lines = tapLines(
      outcome({
        results: [{ index: 0, title: 't', ok: false, step: 1, slot: 'c.s', expected: [], actual: big }],
      }),
      1,
    );
    const actual = lines.find((l) => l.startsWith('  actual: '))!;
    const parsed = JSON.parse(actual.slice('  actual: '.length)) as string;
    expect(parsed.endsWith('… (cut)')).toBe(true);
    expect(parsed.length).toBeLessThan(2100);
  });

  it('a file that could not run is one not ok with its errors', () => {
    expect(tapLines(outcome({ errors: ['a.test.json: $.graph: x'] }), 3)).toEqual([
      '# a.test.json',
      'not ok 3 - a.test.json › load test file',
      '  ---',
      '  message: "the test file could not be run"',
      '  errors:',
      '    - "a.test.json: $.graph: x"',
      '  ...',
    ]);
  });
});

describe('junitXml', () => {
  it('escapes markup, replaces characters XML cannot hold, keeps newlines in attributes', () => {
    expect(xmlEscape(`<a b="c" d='e'>&\u0001`)).toBe('&lt;a b=&quot;c&quot; d=&apos;e&apos;&gt;&amp;\uFFFD');
    const xml = junitXml([
      outcome({
        name: 'n <1>',
        results: [{ index: 0, title: 't', ok: false, expected: 1, actual: 2, message: 'line1\nline2' }],
      }),
    ]);
    expect(xml).toContain('<testsuite name="n &lt;1&gt;" tests="1" failures="1" errors="0" time="1.500"');
    expect(xml).toContain(
      '<failure message="line1&#10;line2" type="expectation">message: &quot;line1\\nline2&quot;',
    );
  });
});

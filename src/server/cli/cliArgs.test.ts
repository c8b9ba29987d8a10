// A negative number after an option that takes a value is that value, so the command's own range
// check answers (`--episodes must be an integer from 1 to …, got "-1"`) instead of parseArgs's
// "argument is ambiguous"; a negative seed is simply accepted.
import { describe, expect, it } from 'vitest';
import { intFlag, joinNegativeValues, parseCliArgs, parseFlags } from './cliArgs.ts';

const options = {
  episodes: { type: 'string', short: 'n' },
  json: { type: 'boolean' },
} as const;

describe('CLI option values that are negative numbers', () => {
  it('are joined to their option, long and short', () => {
    expect(joinNegativeValues(['g.json', '--episodes', '-1', '-n', '-2.5', '--json'], options)).toEqual([
      'g.json',
      '--episodes=-1',
      '-n-2.5',
      '--json',
    ]);
    const { values } = parseCliArgs({ args: ['--episodes', '-1'], options, allowPositionals: true });
    expect(values.episodes).toBe('-1');
    expect(parseCliArgs({ args: ['-n', '-.5'], options }).values.episodes).toBe('-.5');
  });

  it('leave options, flags and everything after -- alone', () => {
    // A boolean flag takes no value; an option followed by another option still has none.
    expect(joinNegativeValues(['--json', '-1'], options)).toEqual(['--json', '-1']);
    expect(() => parseCliArgs({ args: ['--episodes', '--json'], options })).toThrow(/ambiguous/);
    expect(joinNegativeValues(['--', '--episodes', '-1'], options)).toEqual(['--', '--episodes', '-1']);
  });
});

describe('parseFlags, the one way a command reads its argv', () => {
  it('gives typed flags and positionals, negative values included', () => {
    const r = parseFlags(['a', '--episodes', '-3', 'b', '--json'], options);
    if (typeof r === 'string') throw new Error(r);
    expect(r.values).toEqual({ episodes: '-3', json: true });
    expect(r.positionals).toEqual(['a', 'b']);
    expect(intFlag('episodes', r.values.episodes, 1, 10)).toBe(
      '--episodes must be an integer from 1 to 10, got "-3"',
    );
  });

  it("answers an unknown flag with the parser's message instead of throwing", () => {
    const r = parseFlags(['--epsiodes', '3'], options);
    expect(typeof r).toBe('string');
    expect(r).toMatch(/Unknown option '--epsiodes'/);
  });
});

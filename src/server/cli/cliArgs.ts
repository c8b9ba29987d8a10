// The CLI's option parsing: node:util parseArgs, except that a negative number given as the next
// argument of an option that takes a value is that option's value. parseArgs refuses it ("Option
// '--episodes' argument is ambiguous… use '--episodes=-XYZ'"), so `--episodes -1` never reached
// the range check that says what is wrong, and `--seed -5`, a valid seed, could not be given at all.
import { parseArgs, type ParseArgsConfig } from 'node:util';

const NEGATIVE_NUMBER = /^-(\d|\.\d)/;

/**
 * `args` with every `--name -3` / `-n -3` of a value-taking option written inline (`--name=-3`,
 * `-n-3`), which parseArgs reads as the option's value. Everything else is left as it is.
 */
export function joinNegativeValues(args: readonly string[], options: ParseArgsConfig['options']): string[] {
  const takesValue = new Set<string>();
  for (const [name, o] of Object.entries(options ?? {})) {
    if (o.type !== 'string') continue;
    takesValue.add(`--${name}`);
    if (o.short) takesValue.add(`-${o.short}`);
  }
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = args[i + 1];
    if (a === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (takesValue.has(a) && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(a.startsWith('--') ? `${a}=${next}` : `${a}${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** parseArgs over `config.args` with negative numbers taken as values (see above). */
export function parseCliArgs<T extends ParseArgsConfig & { args: string[] }>(config: T) {
  return parseArgs({ ...config, args: joinNegativeValues(config.args, config.options) });
}

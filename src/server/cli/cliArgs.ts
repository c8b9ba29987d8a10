// The CLI's option parsing and argument checks, shared by every command. Parsing is node:util
// parseArgs, except that a negative number given as the next argument of an option that takes a
// value is that option's value. parseArgs refuses it ("Option
// '--episodes' argument is ambiguous… use '--episodes=-XYZ'"), so `--episodes -1` never reached
// the range check that says what is wrong, and `--seed -5`, a valid seed, could not be given at all.
import { parseArgs, type ParseArgsConfig } from 'node:util';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

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

/** What `parseFlags` gives back: the flags by name, typed from `options`, and the positionals. */
export type Flags<O extends OptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: true }>
>;

/**
 * A command's flags and positionals (strict: an unknown flag is an error), or the parser's message
 * for what is wrong — the one way every command reads its argv.
 */
export function parseFlags<O extends OptionsConfig>(argv: string[], options: O): Flags<O> | string {
  try {
    return parseCliArgs({ args: argv, options, strict: true, allowPositionals: true });
  } catch (e) {
    return (e as Error).message;
  }
}

/** An integer flag in [min, max] (a message naming the flag when it is not one), or its default. */
export function intFlag(
  name: string,
  text: string | undefined,
  min: number,
  max: number,
  dflt?: number,
): number | string {
  if (text === undefined) return dflt ?? `--${name} is required`;
  const n = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
    return `--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`;
  return n;
}

/**
 * A command's parsed arguments, or its exit code: --help prints the usage (0); a bad argument prints
 * `statewire NAME: problem` and the usage on stderr (2).
 */
export function argsOrExit<A>(name: string, usage: string, parsed: A | string | 'help'): A | number {
  if (parsed === 'help') {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  if (typeof parsed === 'string') {
    process.stderr.write(`statewire ${name}: ${parsed}\n${usage}\n`);
    return 2;
  }
  return parsed;
}

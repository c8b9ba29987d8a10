// Argument checks shared by the CLI commands (each command parses its own flags with node:util).

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

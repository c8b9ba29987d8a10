// `statewire <command> [args]`: a thin dispatcher. Each command lives in its own module, loaded
// only when used (so `check` never pays for fastify or SQLite), and returns its exit code.

const COMMANDS: Record<string, { module: string; fn: string; summary: string }> = {
  batch: {
    module: './batch.ts',
    fn: 'batchCommand',
    summary: 'run a graph once per episode on K processes; per-episode rows + aggregates (--json, --csv)',
  },
  compare: {
    module: './compare.ts',
    fn: 'compareCommand',
    summary: 'compare two batches episode by episode: paired deltas with intervals, regressions first',
  },
  check: {
    module: './check.ts',
    fn: 'checkCommand',
    summary: 'check graph files: parse warnings, schema errors, validation issues',
  },
  diff: {
    module: './diff.ts',
    fn: 'diffCommand',
    summary: 'what changed structurally between two graph files (nodes, edges, slots, config, routing)',
  },
  'export-graphs': {
    module: './graphsTransfer.ts',
    fn: 'exportGraphsCommand',
    summary: 'write the latest version of every graph in PostgreSQL (STATEWIRE_DATABASE_URL) to DIR',
  },
  format: {
    module: './format.ts',
    fn: 'formatCommand',
    summary: 'print (or --write) the canonical form of a graph file',
  },
  'import-graphs': {
    module: './graphsTransfer.ts',
    fn: 'importGraphsCommand',
    summary: 'save every *.json graph under DIR in PostgreSQL (STATEWIRE_DATABASE_URL), a new version each',
  },
  query: {
    module: './query.ts',
    fn: 'queryCommand',
    summary: "every (episode, step) of a stored batch where a condition holds ('memory.trail length> 5')",
  },
  replay: {
    module: './replay.ts',
    fn: 'replayCommand',
    summary:
      'replay a stored run or a .swrun bundle from its recorded calls (no network); --verify each step',
  },
  run: { module: './run.ts', fn: 'runCommand', summary: 'run a graph headless and print its events' },
  serve: { module: './serve.ts', fn: 'serveCommand', summary: 'serve the editor and the run backend' },
  worker: {
    module: './worker.ts',
    fn: 'workerCommand',
    summary:
      'take batch episodes from Redis (distributed mode: STATEWIRE_REDIS_URL + STATEWIRE_DATABASE_URL)',
  },
  test: {
    module: './test.ts',
    fn: 'testCommand',
    summary: 'run graph tests (*.test.json): expectations on per-step state; TAP, --junit FILE',
  },
};

export const USAGE = `usage: statewire <command> [args]

commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(15)}${c.summary}`)
  .join('\n')}

Run \`statewire <command> --help\` for a command's options.`;

type Command = (argv: string[]) => Promise<number>;

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const entry = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!entry) {
    process.stderr.write(`statewire: unknown command '${name}'\n${USAGE}\n`);
    return 2;
  }
  let fn: Command | undefined;
  try {
    // A variable specifier: run.ts / serve.ts are written by other areas and may not exist yet.
    const spec: string = entry.module;
    const mod = (await import(/* @vite-ignore */ spec)) as Record<string, unknown>;
    fn = typeof mod[entry.fn] === 'function' ? (mod[entry.fn] as Command) : undefined;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code !== 'ERR_MODULE_NOT_FOUND') throw e;
  }
  if (!fn) {
    process.stderr.write(`statewire ${name}: not available in this build\n`);
    return 2;
  }
  return fn(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`statewire: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 70; // internal error (sysexits EX_SOFTWARE), distinct from usage/input errors
  },
);

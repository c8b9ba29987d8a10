// `statewire worker [--concurrency C] [--plugins DIR] [--services FILE]`: a distributed batch worker. Needs
// STATEWIRE_REDIS_URL and STATEWIRE_DATABASE_URL (distributed/config.ts); takes episode jobs from
// the BullMQ queue and runs them against the PostgreSQL log (distributed/worker.ts). Prints what it
// connects to, then `worker ready`. SIGINT/SIGTERM: stops taking jobs, lets the episodes in hand
// finish (for up to --grace seconds, then hands them back to the queue between two steps) and exits
// 0; a second signal hands them back at once.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadServicesConfig, type ServiceEntry } from '../services/servicesConfig.ts';
import {
  distributedConfig,
  DistributedConfigError,
  DATABASE_URL_ENV,
  REDIS_URL_ENV,
} from '../distributed/config.ts';
import { startWorker, type StatewireWorker } from '../distributed/worker.ts';
import { parseCliArgs } from './cliArgs.ts';

const USAGE =
  'usage: statewire worker [--concurrency C] [--plugins DIR] [--services FILE] [--grace SECONDS] [--name NAME]\n' +
  '  --services FILE: node services the episodes call (started by this worker, shared by its slots)\n' +
  `  needs ${REDIS_URL_ENV}=redis://… and ${DATABASE_URL_ENV}=postgres://…`;

export async function workerCommand(argv: string[]): Promise<number> {
  let values: {
    concurrency?: string;
    plugins?: string;
    services?: string;
    grace?: string;
    name?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseCliArgs({
      args: argv,
      options: {
        concurrency: { type: 'string', short: 'c' },
        plugins: { type: 'string' },
        services: { type: 'string' },
        grace: { type: 'string' },
        name: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    console.error(`statewire worker: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const concurrency = Number(values.concurrency ?? '1');
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) {
    console.error(`statewire worker: invalid --concurrency ${JSON.stringify(values.concurrency)} (1–256)`);
    return 2;
  }
  const grace = Number(values.grace ?? '30');
  if (!Number.isFinite(grace) || grace < 0) {
    console.error(`statewire worker: invalid --grace ${JSON.stringify(values.grace)} (seconds ≥ 0)`);
    return 2;
  }
  let cfg;
  try {
    cfg = distributedConfig();
  } catch (err) {
    if (err instanceof DistributedConfigError) {
      console.error(`statewire worker: ${err.message}`);
      return 2;
    }
    throw err;
  }
  if (!cfg) {
    console.error(`statewire worker: distributed mode is off: set ${REDIS_URL_ENV} and ${DATABASE_URL_ENV}`);
    return 2;
  }

  let services: ServiceEntry[] | undefined;
  if (values.services !== undefined) {
    const file = resolve(values.services);
    if (!existsSync(file)) {
      console.error(`statewire worker: --services ${values.services}: no such file`);
      return 2;
    }
    const cfg = loadServicesConfig(dirname(file), [], file);
    for (const e of cfg.errors) console.error(`statewire worker: services ${e.path}: ${e.message}`);
    services = cfg.entries;
  }

  // Handlers first: whoever reads `worker ready` may signal at once.
  let worker: StatewireWorker | undefined;
  let signals = 0;
  let stopRequested: ((signal: string) => void) | undefined;
  const onSignal = (signal: string) => {
    signals++;
    if (signals === 1) console.log(`received ${signal}: finishing the episodes in hand`);
    else {
      console.log(`received ${signal} again: handing the episodes in hand back to the queue`);
      void worker?.close({ handBack: true });
    }
    stopRequested?.(signal);
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));

  try {
    worker = await startWorker({
      redisUrl: cfg.redisUrl,
      databaseUrl: cfg.databaseUrl,
      concurrency,
      plugins: values.plugins,
      name: values.name,
      services,
      log: (line) => console.log(line),
    });
  } catch (err) {
    console.error(`statewire worker: cannot start: ${(err as Error).message}`);
    return 1;
  }
  const w = worker;
  console.log('worker ready');
  return new Promise<number>((done) => {
    const stop = () => {
      w.close({ graceMs: grace * 1000, handBack: signals > 1 }).then(
        () => {
          const s = w.stats;
          console.log(`worker stopped (${s.completed} episodes done, ${s.handedBack} handed back)`);
          done(0);
          // Clients of a Redis that went away may keep reconnect timers: do not linger for them.
          setTimeout(() => process.exit(0), 1000).unref();
        },
        (err: unknown) => {
          console.error(`statewire worker: error during shutdown: ${(err as Error).message}`);
          done(1);
        },
      );
    };
    stopRequested = stop;
    if (signals > 0) stop();
  });
}

// `statewire serve [--port N] [--host H] [--workspace DIR]`: what `npm start` runs. PORT and HOST
// env vars override the defaults (flags override env). Prints `listening on <url>` once ready (tests
// parse it), exits non-zero with a clear message when the port is busy, and shuts down cleanly on
// SIGINT/SIGTERM (closing the database so WAL is checkpointed). When a token is in force (`--token`,
// STATEWIRE_TOKEN, or generated for a non-loopback bind) it prints ready-to-open `/?token=…` URLs.
// Names shown to the others who have the same graph or run open (socket/presence.ts): a token given
// with `--user-token NAME=TOKEN` names whoever holds it (one per person on a shared server);
// `--user NAME` (STATEWIRE_USER) names everyone else — meant for an instance one person started.
import { existsSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import { createServer, DEFAULT_HOST, DEFAULT_PORT, type StatewireServer } from '../app.ts';
import { MB } from '../db/valueLimits.ts';
import { displayNameProblem } from '../../domain/protocol/presence.ts';
import { parseAllowedHostEntries, tokenProblem, type UserToken } from '../http/originGuard.ts';
import { startDemoRunIfFirstLaunch } from './demoRun.ts';
import { parseCliArgs } from './cliArgs.ts';

const USAGE =
  'usage: statewire serve [--port N] [--host H] [--workspace DIR] [--dist DIR] [--body-limit BYTES] [--demo-run]\n' +
  '                       [--max-value-mb MB] [--max-workers N]\n' +
  '                       [--allowed-host NAME[:PORT]]... [--token TOKEN]\n' +
  '                       [--user NAME] [--user-token NAME=TOKEN]...\n' +
  '                       [--service NAME=URL]... [--services FILE]';

/** An environment variable's value; empty = unset. */
const env = (name: string) => (process.env[name] ? process.env[name] : undefined);

export async function serveCommand(argv: string[]): Promise<number> {
  let values: {
    port?: string;
    host?: string;
    workspace?: string;
    dist?: string;
    'body-limit'?: string;
    'max-value-mb'?: string;
    'max-workers'?: string;
    'demo-run'?: boolean;
    'allowed-host'?: string[];
    token?: string;
    user?: string;
    'user-token'?: string[];
    service?: string[];
    services?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseCliArgs({
      args: argv,
      options: {
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        workspace: { type: 'string', short: 'w' },
        dist: { type: 'string' },
        'body-limit': { type: 'string' },
        // The largest value a bundle may import and a read may hand out (db/valueLimits.ts).
        'max-value-mb': { type: 'string' },
        // Episode processes of every batch together (batch/workerSlots.ts).
        'max-workers': { type: 'string' },
        // `npm start` passes it: on a workspace that has never run anything, start the demo graph.
        'demo-run': { type: 'boolean' },
        // Extra Host names to answer to (a reverse proxy's name, a LAN name); see http/originGuard.ts.
        'allowed-host': { type: 'string', multiple: true },
        token: { type: 'string' },
        // Presence names (socket/presence.ts): this instance's user; tokens naming their holders.
        user: { type: 'string' },
        'user-token': { type: 'string', multiple: true },
        // Node services: `--service NAME=URL` (repeatable) and a services file other than workspace/services.json.
        service: { type: 'string', multiple: true },
        services: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    console.error(`statewire serve: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const portText = values.port ?? env('PORT') ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`statewire serve: invalid port ${JSON.stringify(portText)} (expected 0–65535)`);
    return 2;
  }
  const bodyLimit = values['body-limit'] === undefined ? undefined : Number(values['body-limit']);
  if (bodyLimit !== undefined && (!Number.isInteger(bodyLimit) || bodyLimit <= 0)) {
    console.error(`statewire serve: invalid --body-limit ${JSON.stringify(values['body-limit'])}`);
    return 2;
  }
  // Limits (src/server/README.md, "Limits"): a flag, else its STATEWIRE_… variable, else the default.
  const maxValueMb = positiveNumber(values['max-value-mb'], '--max-value-mb');
  if (maxValueMb === null) return 2;
  const maxWorkers = positiveNumber(values['max-workers'], '--max-workers', true);
  if (maxWorkers === null) return 2;
  const host = values.host ?? env('HOST') ?? DEFAULT_HOST;
  const token = checkedText(values.token, '--token', 'STATEWIRE_TOKEN', tokenProblem);
  if (token === null) return 2;
  const user = checkedText(values.user, '--user', 'STATEWIRE_USER', displayNameProblem);
  if (user === null) return 2;
  const userTokens: UserToken[] = [];
  for (const entry of values['user-token'] ?? []) {
    const eq = entry.indexOf('=');
    const label = eq < 0 ? '' : entry.slice(0, eq);
    const problem =
      eq < 0 ? 'expected NAME=TOKEN' : (displayNameProblem(label) ?? tokenProblem(entry.slice(eq + 1)));
    if (problem) {
      // The entry holds a secret: name it by its label only.
      console.error(`statewire serve: invalid --user-token ${JSON.stringify(label)}: ${problem}`);
      return 2;
    }
    userTokens.push({ label, token: entry.slice(eq + 1) });
  }
  const allowedHosts = values['allowed-host'] ?? [];
  try {
    parseAllowedHostEntries(allowedHosts);
  } catch (err) {
    console.error(`statewire serve: ${(err as Error).message}`);
    return 2;
  }
  const workspace = values.workspace ?? env('STATEWIRE_WORKSPACE') ?? 'workspace';
  // Say which folder is served, and when it had to be created: a mistyped --workspace would
  // otherwise silently serve an empty workspace.
  const workspaceExisted = existsSync(workspace);

  let server: StatewireServer;
  try {
    server = await createServer({
      workspace,
      host,
      port,
      bodyLimit,
      maxValueBytes: maxValueMb === undefined ? undefined : Math.round(maxValueMb * MB),
      maxWorkers,
      distDir: values.dist ?? env('STATEWIRE_DIST'),
      allowedHosts,
      token,
      userTokens,
      user,
      services: values.service ?? [],
      servicesFile: values.services,
    });
  } catch (err) {
    console.error(`statewire serve: cannot start: ${(err as Error).message}`);
    return 1;
  }
  let url: string;
  let activeToken: string | undefined;
  let executorUrl = '';
  try {
    ({ url, token: activeToken, executorUrl } = await server.listen());
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    await server.close().catch(() => undefined);
    if (code === 'EADDRINUSE')
      console.error(
        `statewire serve: port ${port} on ${host} is already in use (another statewire running? try --port or PORT=…)`,
      );
    else if (code === 'EACCES') console.error(`statewire serve: no permission to listen on ${host}:${port}`);
    else console.error(`statewire serve: cannot listen on ${host}:${port}: ${(err as Error).message}`);
    return 1;
  }
  return new Promise<number>((done) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      console.log(`received ${signal}, shutting down`);
      server.close().then(
        () => done(0),
        (err: unknown) => {
          console.error(`statewire serve: error during shutdown: ${(err as Error).message}`);
          done(1);
        },
      );
    };
    // `on`, not `once`: a second signal during shutdown (Ctrl-C in a terminal reaches both
    // `npm start`'s wrapper, which forwards it, and this process) must not hit Node's default
    // handler and kill the process before the database is closed. Registered BEFORE `listening on`
    // is printed: whoever reads that line may signal at once, and an unhandled SIGTERM kills.
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    console.log(
      `workspace ${resolve(workspace)}${workspaceExisted ? '' : ' (created: the folder did not exist)'}`,
    );
    // Where the editor's Graphs panel lists from, named the same way there (its header shows it): the
    // workspace's graphs folder, or in distributed mode the PostgreSQL store.
    console.log(`graphs ${server.graphs}`);
    if (server.distributed)
      console.log(
        `distributed: batches queued on ${server.distributed.redis} for statewire worker processes, runs in ${server.distributed.postgres}`,
      );
    console.log(`listening on ${url}`);
    // A `url` node service started by hand calls back here (grants, pushed events): it needs this as
    // AGENTCANVAS_EXECUTOR_URL (docs/node-services-protocol.md). GET /api/services says it too.
    console.log(
      `executor ${executorUrl} (node services started by hand: AGENTCANVAS_EXECUTOR_URL=${executorUrl})`,
    );
    if (activeToken !== undefined) {
      const how = token === undefined ? 'generated for this non-loopback address' : 'from --token';
      console.log(`token required (${how}); open the app with it:`);
      for (const u of openUrls(url)) console.log(`  ${u}/?token=${encodeURIComponent(activeToken)}`);
    }
    if (activeToken === undefined && userTokens.length > 0)
      console.log(`token required (--user-token): each user opens ${url}/?token=<their token>`);
    if (values['demo-run']) {
      void startDemoRunIfFirstLaunch(url, activeToken ?? userTokens[0]?.token).then((r) => {
        const where = activeToken === undefined ? url : 'a token URL above';
        if (r.started) console.log(`demo run ${r.runId} started (first launch): open ${where}`);
        else if (r.reason === 'failed')
          console.error(`statewire serve: demo run not started: ${r.detail ?? ''}`);
      });
    }
  });
}

/**
 * A limit flag's value, else its environment variable's (`--max-value-mb` → STATEWIRE_MAX_VALUE_MB),
 * as a number above 0 (a whole one with `integer`); undefined when neither is set, null (after
 * saying why) when it is not such a number.
 */
function positiveNumber(flag: string | undefined, name: string, integer = false): number | undefined | null {
  const variable = `STATEWIRE_${name.replace(/^--/, '').replace(/-/g, '_').toUpperCase()}`;
  const text = flag ?? env(variable);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() !== '' && Number.isFinite(n) && n > 0 && (!integer || Number.isInteger(n))) return n;
  console.error(
    `statewire serve: invalid ${flag !== undefined ? name : variable} ${JSON.stringify(text)} ` +
      `(expected ${integer ? 'a whole number' : 'a number'} above 0)`,
  );
  return null;
}

/**
 * The flag, else its variable, refused naming whichever gave it when `problem` finds one: null once
 * said (exit 2), undefined when neither is set.
 */
function checkedText(
  flag: string | undefined,
  name: string,
  variable: string,
  problem: (text: string) => string | undefined,
): string | undefined | null {
  const text = flag ?? env(variable);
  const why = text === undefined ? undefined : problem(text);
  if (why === undefined) return text;
  console.error(`statewire serve: invalid ${flag !== undefined ? name : variable}: ${why}`);
  return null;
}

/** Where a person can open the app: the URL itself, or for a wildcard bind loopback + each external IPv4. */
function openUrls(url: string): string[] {
  const u = new URL(url);
  if (u.hostname !== '0.0.0.0' && u.hostname !== '[::]') return [url];
  const external = Object.values(networkInterfaces())
    .flat()
    .filter((i) => i && i.family === 'IPv4' && !i.internal)
    .map((i) => `http://${i!.address}:${u.port}`);
  return [`http://127.0.0.1:${u.port}`, ...external];
}

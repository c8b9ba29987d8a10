// A node service that counts what reaches it, as a real HTTP server in the test process (JSON
// encoding): `tally__tick` answers every step (`next` = its input + 1, and `go` = next once next
// reaches its config's `go_from`), `tally__late` multiplies what `go` sends by its config's `k` — so
// `late` first fires at a step the graph sets, and an edit of its `k` makes the first call that
// differs from a recording at that step. It keeps state per run — how many ticks the run made, which
// `tick` answers as `count` — with snapshot support (`/snapshot`, `/restore`), so a test sees which
// state a live call meets. Each call is kept (function, step, node, the count answered) to count the
// calls a fork did not reuse.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import { decodeMsgpack, encodeMsgpack } from '../services/wireCodec.ts';

export interface TallyCall {
  fn: string;
  node_id: string;
  step: number;
  /** `tick`: the run's tick count it answered. */
  count?: number;
}

export interface TallyService {
  url: string;
  calls: TallyCall[];
  close(): void;
}

const MANIFEST = {
  name: 'tally',
  snapshot: true,
  functions: [
    {
      name: 'tally__tick',
      input_ports: [{ name: 'n', wire_type: 'ANY' }],
      output_ports: [
        { name: 'next', wire_type: 'ANY' },
        { name: 'go', wire_type: 'ANY' },
        { name: 'count', wire_type: 'ANY' },
      ],
      config_schema: { go_from: { type: 'integer', default: 3 } },
    },
    {
      name: 'tally__late',
      input_ports: [{ name: 'x', wire_type: 'ANY' }],
      output_ports: [{ name: 'out', wire_type: 'ANY' }],
      config_schema: { k: { type: 'number', default: 2 } },
    },
  ],
};

export async function startTallyService(): Promise<TallyService> {
  const calls: TallyCall[] = [];
  /** Ticks per run (execution id): the state `/snapshot` and `/restore` carry. */
  const ticks = new Map<string, number>();
  const server = createServer((req, res) => {
    const json = (status: number, body: unknown) => {
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    if (req.url === '/health') return json(200, { status: 'ok' });
    if (req.url === '/manifest') return json(200, MANIFEST);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/snapshot' || req.url === '/restore') {
        const b = decodeMsgpack(Buffer.concat(chunks)) as {
          execution_id: string;
          snapshot?: Uint8Array | null;
        };
        res.setHeader('content-type', 'application/msgpack');
        if (req.url === '/snapshot') {
          const state = Buffer.from(JSON.stringify(ticks.get(b.execution_id) ?? 0));
          return res.end(encodeMsgpack({ snapshot: new Uint8Array(state) }));
        }
        ticks.set(
          b.execution_id,
          b.snapshot ? Number(JSON.parse(Buffer.from(b.snapshot).toString('utf8'))) : 0,
        );
        return res.end(encodeMsgpack({ ok: true }));
      }
      const fn = (req.url ?? '').replace(/^\/call\//, '');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        inputs?: Record<string, unknown>;
        config?: Record<string, unknown>;
        _exec?: { node_id?: string; step?: number; execution_id?: string };
      };
      const call: TallyCall = {
        fn,
        node_id: String(body._exec?.node_id ?? ''),
        step: Number(body._exec?.step ?? -1),
      };
      calls.push(call);
      const inputs = body.inputs ?? {};
      const config = body.config ?? {};
      if (fn === 'tally__tick') {
        const run = String(body._exec?.execution_id ?? '');
        const count = (ticks.get(run) ?? 0) + 1;
        ticks.set(run, count);
        call.count = count;
        const next = Number(inputs.n ?? 0) + 1;
        const outputs = next >= Number(config.go_from ?? 3) ? { next, go: next, count } : { next, count };
        return json(200, { outputs });
      }
      if (fn === 'tally__late')
        return json(200, { outputs: { out: Number(inputs.x) * Number(config.k ?? 2) } });
      return json(404, { detail: `no function ${fn}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const at = (x: number, y: number) => ({ x, y });

/** A loop of `steps` steps: its step → tick → (from `go_from` on) late; late's config `{k}`. */
export function tallyGraph(steps: number, k = 2, goFrom = 4): GraphDef {
  return {
    name: 'tally',
    description: '',
    step_budget: steps,
    eval_graph: false,
    kind: 'graph',
    group: '',
    presetId: null,
    hooks: [],
    containers: [],
    nodes: [
      { id: 'seed', type: 'constant', config: { value: 'go', wire_type: 'TEXT' }, position: at(0, 0) },
      {
        id: 'loop_in',
        type: 'iterIn',
        config: {
          version: 3,
          pairedWith: 'loop_out',
          initPorts: [{ name: 'seed', wire_type: 'TEXT', persist: true }],
        },
        position: at(200, 0),
      },
      { id: 'tick', type: 'tally__tick', config: { go_from: goFrom }, position: at(400, 0) },
      { id: 'late', type: 'tally__late', config: { k }, position: at(600, 100) },
      {
        id: 'loop_out',
        type: 'iterOut',
        config: { pairedWith: 'loop_in', ports: [{ name: 'n', wire_type: 'ANY', persist: true }] },
        position: at(800, 0),
      },
    ],
    edges: [
      { id: 'e1', source: 'seed', target: 'loop_in', sourceHandle: 'value', targetHandle: 'init_seed' },
      { id: 'e2', source: 'loop_in', target: 'tick', sourceHandle: 'step', targetHandle: 'n' },
      { id: 'e3', source: 'tick', target: 'late', sourceHandle: 'go', targetHandle: 'x' },
      { id: 'e4', source: 'tick', target: 'loop_out', sourceHandle: 'next', targetHandle: 'n' },
    ],
  } as unknown as GraphDef;
}

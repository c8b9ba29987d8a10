// A node service that answers late, as a real HTTP server in the test process: `GET /health`,
// `GET /manifest` (one function, `slowset__wait`), and `POST /call/…` answered after `answerAfterMs`
// — long enough to stop a run while the call is in flight. Records each call and whether its caller
// went away before the answer.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlowService {
  url: string;
  calls: { at: number; aborted: boolean }[];
  close(): void;
}

/** A graph of one node, the service's function (a DAG run: one step). */
export const SLOW_GRAPH = {
  name: 'Slow',
  eval_graph: false,
  step_budget: null,
  nodes: [{ id: 'wait', type: 'slowset__wait', position: { x: 0, y: 0 }, config: {} }],
  edges: [],
};

export async function startSlowService(answerAfterMs: number): Promise<SlowService> {
  const calls: SlowService['calls'] = [];
  const server = createServer((req, res) => {
    const json = (body: unknown) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    if (req.url === '/health') return json({ status: 'ok' });
    if (req.url === '/manifest')
      return json({
        name: 'slowset',
        functions: [{ name: 'slowset__wait', output_ports: [{ name: 'out', wire_type: 'ANY' }] }],
      });
    const call = { at: Date.now(), aborted: false };
    calls.push(call);
    res.on('close', () => {
      if (!res.writableFinished) call.aborted = true;
    });
    req.resume();
    setTimeout(() => {
      if (!res.destroyed) json({ outputs: { out: 'the late answer' } });
    }, answerAfterMs);
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

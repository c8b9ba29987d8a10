// The attacker's side of e2e/attacks.spec.ts: a tiny HTTP server on another loopback origin that
// serves a blank page, and the attacks that page runs in Chromium (passed to page.evaluate, so each
// function is self-contained: no closures over this module).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostileSite {
  origin: string;
  close(): Promise<void>;
}

/** Serves a blank HTML page on `http://<bindHost>:<free port>`, reached under the name `host`. */
export async function startHostileSite(bindHost: string, host = bindHost): Promise<HostileSite> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>totally harmless</title><p>nothing to see</p>');
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, bindHost, ok);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}

/** What one socket attempt achieved: did it connect, and how many run events did it read. */
export interface SocketOutcome {
  connected: boolean;
  events: number;
  error?: string;
}

export interface AttackReport {
  /** fetch/sendBeacon/form attempts that the browser sent (opaque: the page cannot see answers). */
  blind: string[];
  /** Attempts to READ an answer: what the page got (status + body) or the error. */
  reads: Record<string, string>;
  socketIoWebsocket: SocketOutcome;
  socketIoPolling: SocketOutcome;
  rawWebSocket: SocketOutcome;
}

interface SocketIoGlobal {
  io(
    url: string | undefined,
    opts: object,
  ): {
    on(ev: string, fn: (e: { message?: string }) => void): void;
    onAny(fn: () => void): void;
    emit(ev: string, msg: unknown): void;
    close(): void;
  };
}

/**
 * Everything a page on another origin can try against `target` (or, with target '', against its own
 * origin, which is the DNS-rebinding case). Needs the socket.io browser bundle loaded as `window.io`.
 */
export async function runAttacks(args: { target: string; runId: string }): Promise<AttackReport> {
  const { target, runId } = args;
  const report: AttackReport = {
    blind: [],
    reads: {},
    socketIoWebsocket: { connected: false, events: 0 },
    socketIoPolling: { connected: false, events: 0 },
    rawWebSocket: { connected: false, events: 0 },
  };
  const graph = JSON.stringify({ name: 'pwned', nodes: [], edges: [] });
  const start = JSON.stringify({ loop_definition: { name: 'pwned', nodes: [], edges: [] } });

  // 1. Blind writes: no-cors fetch (no preflight; a body makes it text/plain), beacon, forms.
  const blindPosts: Array<[string, string | undefined]> = [
    ['/api/navigate/run/pause', undefined],
    ['/api/navigate/run/stop', undefined],
    ['/api/navigate/run/restore/1', undefined],
    ['/api/navigate/run/delay', JSON.stringify({ step_delay_ms: 60000 })],
    [`/api/runs/${runId}/restore`, JSON.stringify({ step: 1 })],
    ['/api/navigate/run', start],
    ['/api/graphs', graph],
  ];
  for (const [path, body] of blindPosts) {
    const r = await fetch(target + path, { method: 'POST', mode: 'no-cors', body }).then(
      () => 'sent',
      (e: Error) => `failed: ${e.message}`,
    );
    report.blind.push(`no-cors POST ${path}: ${r}`);
  }
  report.blind.push(`beacon stop: ${navigator.sendBeacon(`${target}/api/navigate/run/stop`, '{}')}`);
  report.blind.push(`beacon graph: ${navigator.sendBeacon(`${target}/api/graphs`, graph)}`);
  // A text/plain form whose body happens to be JSON: {"name":"pwned_form","x":"="}.
  const frame = document.createElement('iframe');
  frame.name = 'sink';
  document.body.append(frame);
  for (const [action, enctype] of [
    ['/api/navigate/run/stop', 'application/x-www-form-urlencoded'],
    ['/api/graphs', 'text/plain'],
  ] as const) {
    const form = document.createElement('form');
    form.method = 'POST';
    form.action = target ? target + action : action;
    form.enctype = enctype;
    form.target = 'sink';
    const input = document.createElement('input');
    input.name = '{"name":"pwned_form","x":"';
    input.value = '"}';
    form.append(input);
    document.body.append(form);
    const loaded = new Promise((ok) => frame.addEventListener('load', ok, { once: true }));
    form.submit();
    await Promise.race([loaded, new Promise((ok) => setTimeout(ok, 2000))]);
    report.blind.push(`form POST ${action} (${enctype}): submitted`);
  }

  // 2. Reads and preflighted writes: only CORS (never granted) or the rebinding trick could open them.
  const attempts: Array<[string, string, RequestInit]> = [
    ['GET /api/graphs', '/api/graphs', {}],
    ['GET /api/runs', '/api/runs', {}],
    ['GET run events', `/api/runs/${runId}/events?after=0&limit=50`, {}],
    ['GET run status', '/api/navigate/run/status', {}],
    [
      'JSON POST stop',
      '/api/navigate/run/stop',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
    ],
    [
      'PUT graph',
      '/api/graphs/grid_navigator',
      { method: 'PUT', headers: { 'content-type': 'application/json' }, body: graph },
    ],
    [
      'DELETE graph',
      '/api/graphs/grid_navigator',
      { method: 'DELETE', headers: { 'content-type': 'application/json' } },
    ],
  ];
  for (const [label, path, init] of attempts) {
    report.reads[label] = await fetch(target + path, init).then(
      async (res) => `${res.status} ${await res.text()}`,
      (e: Error) => `failed: ${e.message}`,
    );
  }

  // 3. The live protocol: socket.io (WebSocket and polling) and a raw engine.io WebSocket.
  const { io } = window as unknown as SocketIoGlobal;
  const viaSocketIo = (transports: string[]) =>
    new Promise<SocketOutcome>((done) => {
      const out: SocketOutcome = { connected: false, events: 0 };
      const s = io(target || undefined, { transports, reconnection: false, forceNew: true, timeout: 3000 });
      s.on('connect', () => {
        out.connected = true;
        s.emit('subscribe', { runId, afterSeq: 0, fullValues: true });
      });
      s.onAny(() => (out.events += 1));
      s.on('connect_error', (e) => {
        out.error = e.message;
        done(out);
      });
      setTimeout(() => {
        s.close();
        done(out);
      }, 3000);
    });
  const raw = new Promise<SocketOutcome>((done) => {
    const out: SocketOutcome = { connected: false, events: 0 };
    const base = (target || window.location.origin).replace(/^http/, 'ws');
    const ws = new WebSocket(`${base}/socket.io/?EIO=4&transport=websocket`);
    ws.onopen = () => {
      out.connected = true;
      ws.send('40');
    };
    ws.onmessage = (m: MessageEvent<string>) => {
      if (m.data === '2') ws.send('3');
      if (m.data.startsWith('40')) ws.send(`42["subscribe",{"runId":"${runId}","afterSeq":0}]`);
      if (m.data.startsWith('42')) out.events += 1;
    };
    ws.onerror = () => (out.error = 'websocket error');
    ws.onclose = () => done(out);
    setTimeout(() => {
      ws.close();
      done(out);
    }, 3000);
  });
  [report.socketIoWebsocket, report.socketIoPolling, report.rawWebSocket] = await Promise.all([
    viaSocketIo(['websocket']),
    viaSocketIo(['polling']),
    raw,
  ]);
  return report;
}

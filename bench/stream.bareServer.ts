// The baseline of bench/stream.bench.ts: a bare socket.io server (its own Node process, plain
// `socket.io` Server on loopback) that pushes recorded run events the way a naive server would —
// one socket.io message per event, no batching, no log, no engine.
// Usage: node --import tsx bench/stream.bareServer.ts EVENTS.json   (prints `port N` once listening)
// A client asks with `push {mode}`:
//  - `burst`: every event as fast as it can (nav_step `ts` stamped as in paced mode), a step's events back to back, then one event-loop turn
//    (setImmediate) before the next step, so socket writes interleave as in a real server;
//  - `paced {delayMs}`: one step every delayMs; its nav_step's `ts` is stamped right before that step
//    is pushed, so a client measures push → receive latency with the same clock field as ours.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Server, type Socket } from 'socket.io';

interface Envelope {
  type: string;
  runId: string;
  seq: number;
  ts: string;
  data: unknown;
}

const file = process.argv[2];
if (!file) throw new Error('usage: stream.bareServer.ts EVENTS.json');
const events = JSON.parse(readFileSync(file, 'utf8')) as Envelope[];

/** The recorded events cut into steps: each step ends with its nav_step (the step boundary). */
const steps: Envelope[][] = [];
let current: Envelope[] = [];
for (const e of events) {
  current.push(e);
  if (e.type === 'nav_step') {
    steps.push(current);
    current = [];
  }
}
if (current.length > 0) steps.push(current);

const turn = () => new Promise<void>((r) => setImmediate(r));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function push(socket: Socket, mode: string, delayMs: number, maxSteps: number): Promise<void> {
  const n = Math.min(maxSteps, steps.length);
  for (let i = 0; i < n; i++) {
    const step = steps[i]!;
    if (mode === 'paced') {
      await sleep(delayMs);
      const ts = new Date().toISOString();
      for (const e of step) socket.emit(e.type, e.type === 'nav_step' ? { ...e, ts } : e);
    } else {
      // Stamped as in paced mode, so a client can also read the latency at saturation.
      const ts = new Date().toISOString();
      for (const e of step) socket.emit(e.type, e.type === 'nav_step' ? { ...e, ts } : e);
      await turn();
    }
  }
  socket.emit('push_done', { steps: n });
}

const http = createServer();
const io = new Server(http, { serveClient: false });
io.on('connection', (socket) => {
  socket.on('push', (msg: { mode?: string; delayMs?: number; steps?: number }) => {
    void push(socket, msg.mode ?? 'burst', msg.delayMs ?? 20, msg.steps ?? Infinity);
  });
});
http.listen(0, '127.0.0.1', () => {
  const addr = http.address();
  if (addr && typeof addr === 'object') process.stdout.write(`port ${addr.port}\n`);
});
process.on('SIGTERM', () => {
  void io.close();
  http.close(() => process.exit(0));
});

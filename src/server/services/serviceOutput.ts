// A managed service's stdout/stderr, into the run log: while a run is live, each line becomes an
// `error_event` (source `log`, code SERVICE_OUTPUT; stderr lines are warnings) stored with the run and
// shown in the editor's Log panel, so a Python traceback sits next to the node error it caused.
// Always echoed to the server's console too. A chatty service cannot flood the run's log: at most
// LINES_PER_SECOND lines per service per second are logged; the rest are counted, and the count is
// logged with the next line that gets through.
import type { ErrorEnvelope } from '../../domain/protocol/protocol.ts';

const LINES_PER_SECOND = 50;
const MAX_LINE = 2000;

export interface RunLog {
  /** Appends a server-raised event to the live run's log (no-op when no run is live). */
  emit(type: 'error_event', data: ErrorEnvelope): void;
}

export function serviceOutputSink(
  currentRun: () => RunLog | undefined,
  echo: (line: string) => void,
  now: () => number = Date.now,
): (service: string, stream: 'stdout' | 'stderr', line: string) => void {
  const windows = new Map<string, { second: number; lines: number; dropped: number }>();
  let n = 0;
  return (service, stream, line) => {
    echo(`[service ${service}${stream === 'stderr' ? ' stderr' : ''}] ${line}`);
    const run = currentRun();
    if (!run) return;
    const t = now();
    const second = Math.floor(t / 1000);
    let w = windows.get(service);
    if (!w || w.second !== second) {
      w = { second, lines: 0, dropped: w?.dropped ?? 0 };
      windows.set(service, w);
    }
    if (w.lines >= LINES_PER_SECOND) {
      w.dropped++;
      return;
    }
    w.lines++;
    const dropped = w.dropped;
    w.dropped = 0;
    const text = line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line;
    run.emit('error_event', {
      id: `svc_out_${t.toString(36)}_${(n++).toString(36)}`,
      ts: new Date(t).toISOString(),
      severity: stream === 'stderr' ? 'warning' : 'info',
      source: 'log',
      code: 'SERVICE_OUTPUT',
      title: `service ${service}${stream === 'stderr' ? ' (stderr)' : ''}`,
      message:
        dropped > 0 ? `${text} (${dropped} earlier line(s) not logged: over ${LINES_PER_SECOND}/s)` : text,
      scope: {},
      details: { service, stream, ...(dropped > 0 ? { dropped } : {}) },
      hint: '',
    });
  };
}

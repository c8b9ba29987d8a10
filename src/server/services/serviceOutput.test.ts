import { describe, expect, it } from 'vitest';
import type { ErrorEnvelope } from '../../domain/protocol/protocol.ts';
import { serviceOutputSink } from './serviceOutput.ts';

function setup(live = true) {
  const logged: ErrorEnvelope[] = [];
  const echoed: string[] = [];
  let t = 1_000_000;
  const sink = serviceOutputSink(
    () => (live ? { emit: (_type, data) => void logged.push(data) } : undefined),
    (l) => echoed.push(l),
    () => t,
  );
  return { sink, logged, echoed, advance: (ms: number) => (t += ms) };
}

describe('service output into the run log', () => {
  it('logs stdout as info and stderr as a warning, naming the service, and echoes both', () => {
    const s = setup();
    s.sink('sim', 'stdout', 'loaded scene');
    s.sink('sim', 'stderr', 'Traceback (most recent call last):');
    expect(s.logged.map((e) => [e.severity, e.code, e.title, e.message])).toEqual([
      ['info', 'SERVICE_OUTPUT', 'service sim', 'loaded scene'],
      ['warning', 'SERVICE_OUTPUT', 'service sim (stderr)', 'Traceback (most recent call last):'],
    ]);
    expect(s.echoed).toEqual([
      '[service sim] loaded scene',
      '[service sim stderr] Traceback (most recent call last):',
    ]);
  });

  it('without a live run, lines only go to the console', () => {
    const s = setup(false);
    s.sink('sim', 'stdout', 'idle line');
    expect(s.logged).toEqual([]);
    expect(s.echoed).toHaveLength(1);
  });

  it('a flood is capped per second, and the next logged line says how many were left out', () => {
    const s = setup();
    for (let i = 0; i < 80; i++) s.sink('sim', 'stdout', `line ${i}`);
    expect(s.logged).toHaveLength(50);
    s.advance(1000);
    s.sink('sim', 'stdout', 'after');
    expect(s.logged.at(-1)!.message).toBe('after (30 earlier line(s) not logged: over 50/s)');
    expect(s.logged.at(-1)!.details).toMatchObject({ dropped: 30 });
    expect(s.echoed).toHaveLength(81);
  });
});

import { describe, expect, it } from 'vitest';
import { packEvents, unpackEvents } from './packedEvents.ts';
import type { EventEnvelope } from './protocol.ts';

const ev = (
  seq: number,
  ts: string,
  type: EventEnvelope['type'] = 'exec_log',
  runId = 'r1',
): EventEnvelope => ({
  type,
  runId,
  seq,
  ts,
  data: { node_id: 'n', seq, nested: [1, { a: null }] },
});

describe('packed events batches (the live batch wire form)', () => {
  it('unpack gives back the very envelopes, seqs (with their holes) and ts included', () => {
    const events = [
      ev(5, '2026-12-06T19:59:59.998Z', 'node_status'),
      ev(6, '2026-12-06T19:59:59.998Z'),
      ev(9, '2026-12-06T20:00:00.001Z', 'gap'),
      ev(10, '2026-12-06T20:00:01.250Z', 'nav_step'),
    ];
    const packed = packEvents('r1', events);
    expect(packed).toMatchObject({ runId: 'r1', seq: [5, 6, 9, 10], dt: [0, 0, 3, 1252] });
    // Through JSON, as on the wire.
    expect(unpackEvents(JSON.parse(JSON.stringify(packed)))).toEqual({ ok: true, events });
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(events).length);
  });

  it('an empty batch packs and unpacks to nothing', () => {
    expect(unpackEvents(packEvents('r1', []))).toEqual({ ok: true, events: [] });
  });

  it('a ts that would not come back the same (not ISO of whole ms) travels as it is, in a ts column', () => {
    const events = [ev(1, '2026-12-06T20:00:00Z'), ev(2, '2026-12-06T20:00:00.004Z'), ev(3, 'yesterday')];
    const packed = packEvents('r1', events);
    expect(packed).toMatchObject({ t0: 0, dt: [0, 0, 0], ts: events.map((e) => e.ts) });
    expect(unpackEvents(JSON.parse(JSON.stringify(packed)))).toEqual({ ok: true, events });
    // The usual batch has no ts column.
    expect(packEvents('r1', [events[1]!])).not.toHaveProperty('ts');
  });

  it('refuses events of another run (a batch is one run of events)', () => {
    expect(() => packEvents('r1', [ev(1, '2026-12-06T20:00:00.000Z', 'exec_log', 'r2')])).toThrow(
      /event 1 is of run r2, not r1/,
    );
  });

  it('names what is wrong with a batch it cannot read, without throwing', () => {
    const good = packEvents('r1', [ev(1, '2026-12-06T20:00:00.000Z'), ev(2, '2026-12-06T20:00:00.004Z')])!;
    const cases: Array<[unknown, RegExp]> = [
      [null, /not an object/],
      [[1], /not an object/],
      [{ ...good, runId: 7 }, /\$\.runId is not a string/],
      [{ ...good, t0: 'now' }, /\$\.t0 is not an integer/],
      [{ ...good, seq: 'x' }, /\$\.seq is not an array/],
      [{ ...good, seq: [1, 2.5] }, /\$\.seq holds a value that is not an integer/],
      [{ ...good, dt: [0] }, /\$\.dt is not 2 integers/],
      [{ ...good, type: ['exec_log', 3] }, /\$\.type is not 2 strings/],
      [{ ...good, data: [] }, /\$\.data is not 2 values/],
      [{ ...good, dt: [0, 9e15] }, /\$\.dt\[1\] is out of range/],
      [{ ...good, ts: ['2026-12-06T20:00:00Z'] }, /\$\.ts is not 2 strings/],
    ];
    for (const [raw, error] of cases) {
      const r = unpackEvents(raw);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(error);
    }
  });
});

// Cutting a live batch into packets (eventPackets.ts): every event once, in order, each packet's
// JSON exactly what socket.io's encoder writes for it, and packet sizes that follow the target as
// the events' size changes.
import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import { packEvents, unpackEvents } from '../../domain/protocol/packedEvents.ts';
import { EventPacketer } from './eventPackets.ts';

let seq = 0;
const event = (bytes: number): EventEnvelope => ({
  type: 'exec_log',
  runId: 'r',
  seq: ++seq,
  ts: '2026-01-01T00:00:00.000Z',
  data: { node_id: 'n', note: 'x'.repeat(bytes) },
});
const many = (n: number, bytes: number) => Array.from({ length: n }, () => event(bytes));

describe('EventPacketer', () => {
  it('keeps every event once and in order; each JSON is what socket.io would write', () => {
    const events = many(1000, 200);
    const packets = new EventPacketer(16 * 1024).packets(events);
    expect(packets.length).toBeGreaterThan(5);
    expect(packets.flatMap((p) => p.events)).toEqual(events);
    for (const p of packets) expect(p.json).toBe(JSON.stringify(['events', p.events]));
  });

  it('learns how many events fill a packet, and follows when the events grow or shrink', () => {
    const packeter = new EventPacketer(16 * 1024);
    const sizes = (events: EventEnvelope[]) => packeter.packets(events).map((p) => p.json.length);
    sizes(many(200, 200)); // the first packet is cut on a guess; from then on, on what was measured
    for (const n of sizes(many(1000, 200)).slice(0, -1)) expect(n).toBeGreaterThan(12 * 1024);
    const big = sizes(many(200, 2000)); // events 10x bigger: the first slice is halved, then it adapts
    for (const n of big) expect(n).toBeLessThanOrEqual(32 * 1024);
    expect(big.length).toBeGreaterThan(12);
    for (const n of big.slice(6, -1)) expect(n).toBeLessThan(20 * 1024);
    const small = sizes(many(2000, 20)); // and back: packets do not stay tiny
    for (const n of small.slice(1, -1)) expect(n).toBeGreaterThan(12 * 1024);
  });

  it('gives an event far bigger than the target a packet of its own; the others stay within twice the target', () => {
    const events = [...many(20, 10), event(100_000), ...many(20, 10)];
    const packets = new EventPacketer(16 * 1024).packets(events);
    expect(packets.flatMap((p) => p.events)).toEqual(events);
    expect(packets.some((p) => p.events.length === 1 && p.events[0] === events[20])).toBe(true);
    for (const p of packets) if (p.events.length > 1) expect(p.json.length).toBeLessThanOrEqual(32 * 1024);
  });

  it('an empty batch makes no packet', () => {
    expect(new EventPacketer().packets([])).toEqual([]);
  });
});

describe('EventPacketer with a packed form', () => {
  it('packets carry the packed payload, whose JSON is what socket.io would write, and unpack to every event in order', () => {
    const events = many(1000, 200);
    const packets = new EventPacketer(16 * 1024, (slice) => packEvents('r', slice) ?? slice).packets(events);
    expect(packets.length).toBeGreaterThan(5);
    for (const p of packets) {
      expect(Array.isArray(p.payload)).toBe(false);
      expect(p.json).toBe(JSON.stringify(['events', p.payload]));
    }
    const back = packets.flatMap((p) => {
      const r = unpackEvents(JSON.parse(p.json)[1]);
      return r.ok ? r.events : [];
    });
    expect(back).toEqual(events);
  });
});

import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../domain/protocol/protocol.ts';
import type { CommitBatch } from '../db/runLog.ts';
import { packCommit, unpackCommit } from './commitWire.ts';

const ev = (seq: number, ts: string, type: EventEnvelope['type'], data: unknown): EventEnvelope => ({
  type,
  runId: 'b_e1',
  seq,
  ts,
  data,
});
const T1 = '2026-01-01T00:00:00.001Z';
const T2 = '2026-01-01T00:00:00.002Z';

describe('commitWire', () => {
  it('round-trips a group commit exactly: staged steps, checkpoints, row fields', () => {
    const batch: CommitBatch = {
      earlier: [
        {
          events: [ev(5, T1, 'exec_log', { node: 'a' }), ev(6, T1, 'nav_step', { step: 1 })],
          checkpoint: { step: 1, state: { c: { x: 1 } } },
        },
        { events: [ev(7, T2, 'nav_step', { step: 2 })], checkpoint: { step: 2, state: {} } },
      ],
      events: [ev(8, T2, 'signal', null), ev(9, T1, 'nav_step', { step: 3 })],
      checkpoint: { step: 3, state: { c: { x: 3 } } },
      steps: 3,
      status: 'running',
      endedAt: null,
      plain: true,
    };
    const wire = packCommit(batch);
    // What travels: no runId, seq only once per part, a ts only where it changes.
    const text = JSON.stringify(wire);
    expect(text).not.toContain('b_e1');
    expect(text.split(T1).length - 1).toBe(2);
    expect(unpackCommit('b_e1', JSON.parse(text))).toEqual(batch);
  });

  it('round-trips a single-step commit without `earlier`, and an empty one', () => {
    const one: CommitBatch = { events: [ev(1, T1, 'nav_status', { status: 'running' })], steps: 0 };
    expect(unpackCommit('b_e1', JSON.parse(JSON.stringify(packCommit(one))))).toEqual(one);
    const empty: CommitBatch = { events: [], steps: 4, status: 'interrupted', endedAt: T2 };
    expect(unpackCommit('b_e1', JSON.parse(JSON.stringify(packCommit(empty))))).toEqual(empty);
  });

  it('refuses events whose seqs are not consecutive (the wire form could not carry them)', () => {
    expect(() => packCommit({ events: [ev(1, T1, 'signal', 1), ev(3, T1, 'signal', 2)] })).toThrow(
      /seq 3 does not follow/,
    );
  });
});

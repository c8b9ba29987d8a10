// The one recording mechanism for external calls (effects.ts): intent before the call, the same key
// after a crash, a recorded answer instead of a second call.
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../domain/protocol/protocol.ts';
import { effectKey, makeEffect, type EffectCall, type EffectStore } from './effects.ts';

class MemoryStore implements EffectStore {
  readonly intents: EffectCall[] = [];
  readonly answers = new Map<string, { response: unknown; ms: number }>();
  lookup(key: string): unknown {
    return this.answers.get(key)?.response;
  }
  intend(call: EffectCall): void {
    this.intents.push(call);
  }
  record(key: string, _req: unknown, response: unknown, call?: EffectCall & { ms: number }): void {
    this.answers.set(key, { response, ms: call?.ms ?? -1 });
  }
}

function host(store: EffectStore, events: EngineEvent[] = [], clock = { t: 0 }) {
  return {
    lineage: 'L',
    options: { effects: store },
    emit: (e: EngineEvent) => void events.push(e),
    now: () => clock.t,
  };
}

describe('recorded calls (effects.ts)', () => {
  it('commits the intent before calling and sends the key with the call', async () => {
    const store = new MemoryStore();
    const effect = makeEffect(host(store), 3, 'policy');
    const seen: string[] = [];
    await effect(
      { config: { epsilon: 0.15 } },
      async (key) => {
        expect(store.intents.map((c) => c.key)).toEqual([key]); // durable before the call
        seen.push(key);
        return { action: 1 };
      },
      'service',
    );
    expect(seen[0]).toBe(effectKey('L', 3, undefined, 'policy', 0, { config: { epsilon: 0.15 } }));
    expect(seen[0]).toMatch(/^L:3:policy:0:[0-9a-f]{16}$/);
    expect(store.intents[0]).toMatchObject({ step: 3, node_id: 'policy', index: 0, kind: 'service' });
  });

  it('after a crash during the call the resumed run re-sends the same key, then uses the answer', async () => {
    const store = new MemoryStore();
    const keys: string[] = [];
    // The first attempt dies mid-call (the process is killed: no answer is recorded).
    await expect(
      makeEffect(
        host(store),
        5,
        'env',
      )({ a: 1 }, async (key) => {
        keys.push(key);
        throw new Error('killed');
      }),
    ).rejects.toThrow('killed');
    const clock = { t: 100 };
    const resumed = await makeEffect(
      host(store, [], clock),
      5,
      'env',
    )({ a: 1 }, async (key) => {
      keys.push(key);
      clock.t = 142;
      return 'answer';
    });
    expect(resumed).toBe('answer');
    expect(keys[1]).toBe(keys[0]);
    expect(store.answers.get(keys[0]!)).toEqual({ response: 'answer', ms: 42 });
    const events: EngineEvent[] = [];
    let called = false;
    const again = await makeEffect(
      host(store, events),
      5,
      'env',
    )({ a: 1 }, async () => {
      called = true;
      return 'fresh';
    });
    expect([again, called]).toEqual(['answer', false]);
    expect(events[0]).toMatchObject({ type: 'effect', data: { mode: 'replayed', key: keys[0] } });
  });

  it('keys differ by call ordinal, loop iteration and request (a changed config never reuses an answer)', () => {
    const k = (scope: number | undefined, n: number, req: unknown) => effectKey('L', 2, scope, 'n', n, req);
    const img = new Uint8Array([1, 2, 3]);
    expect(new Set([k(undefined, 0, 1), k(undefined, 1, 1), k(4, 0, 1), k(undefined, 0, 2)]).size).toBe(4);
    expect(k(undefined, 0, { b: 1, a: img })).toBe(k(undefined, 0, { a: new Uint8Array([1, 2, 3]), b: 1 }));
    expect(k(undefined, 0, { a: img })).not.toBe(k(undefined, 0, { a: new Uint8Array([1, 2, 4]) }));
  });
});

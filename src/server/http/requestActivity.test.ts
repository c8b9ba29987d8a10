// Request activity (what compaction yields to): busy while a request is in flight, for
// QUIET_AFTER_MS after the last answer (errors included), idle after that.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { QUIET_AFTER_MS, trackRequestActivity } from './requestActivity.ts';

describe('trackRequestActivity', () => {
  it('is busy during a request and shortly after it, idle once the server has been quiet', async () => {
    const app = Fastify();
    let clock = 1000;
    const activity = trackRequestActivity(app, () => clock);
    let seenInside: boolean | undefined;
    app.get('/slow', async () => {
      seenInside = activity.busy();
      return { ok: true };
    });
    app.get('/fails', async () => {
      throw new Error('boom');
    });
    expect(activity.busy()).toBe(false);
    expect((await app.inject({ method: 'GET', url: '/slow' })).statusCode).toBe(200);
    expect(seenInside).toBe(true);
    expect(activity.busy()).toBe(true);
    clock += QUIET_AFTER_MS - 1;
    expect(activity.busy()).toBe(true);
    clock += 2;
    expect(activity.busy()).toBe(false);
    // A failed request and an unknown route count as activity too, and end it.
    expect((await app.inject({ method: 'GET', url: '/fails' })).statusCode).toBe(500);
    expect(activity.busy()).toBe(true);
    clock += QUIET_AFTER_MS + 1;
    expect((await app.inject({ method: 'GET', url: '/nothing' })).statusCode).toBe(404);
    expect(activity.busy()).toBe(true);
    clock += QUIET_AFTER_MS + 1;
    expect(activity.busy()).toBe(false);
    await app.close();
  });
});

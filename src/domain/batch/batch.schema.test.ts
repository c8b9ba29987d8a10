import { describe, expect, it } from 'vitest';
import { BatchStartBodySchema } from './batch.schema.ts';

const issues = (body: unknown) => {
  const r = BatchStartBodySchema.safeParse(body);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('BatchStartBodySchema', () => {
  it('fills the defaults', () => {
    expect(BatchStartBodySchema.parse({ loop_definition: {}, episodes: 3 })).toEqual({
      loop_definition: {},
      episodes: 3,
      workers: 1,
      seed: 0,
      set: [],
    });
  });
  it('names each bad field', () => {
    expect(issues({ episodes: 3 })).toEqual(['loop_definition: loop_definition (the graph) is required']);
    expect(issues({ loop_definition: {}, episodes: 0 })).toEqual(['episodes: episodes must be at least 1']);
    expect(issues({ loop_definition: {}, episodes: 100_001 })).toEqual([
      'episodes: episodes must be at most 100000',
    ]);
    expect(issues({ loop_definition: {}, episodes: 1.5 })).toEqual(['episodes: episodes must be an integer']);
    expect(issues({ loop_definition: {}, episodes: '3' })).toEqual(['episodes: episodes must be a number']);
    expect(issues({ loop_definition: {}, episodes: 1, workers: 65 })).toEqual([
      'workers: workers must be at most 64',
    ]);
    expect(issues({ loop_definition: {}, episodes: 1, seed: 0.5 })).toEqual([
      'seed: seed must be an integer',
    ]);
    expect(issues({ loop_definition: {}, episodes: 1, set: ['a=1', 2] })).toEqual([
      'set.1: each set entry must be a "path=value" string',
    ]);
    expect(issues({ loop_definition: {}, episodes: 1, episode: 2 })[0]).toMatch(/episode/);
  });
});

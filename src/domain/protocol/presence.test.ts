// The presence message and list: what the server accepts from a tab, and the colour each member gets.
import { describe, expect, it } from 'vitest';
import {
  displayNameProblem,
  PRESENCE_PALETTE,
  presenceColour,
  PresenceMessageSchema,
  subjectKey,
  subjectOf,
} from './presence.ts';

describe('presence message', () => {
  it('takes a tab id and at most one of graph / run', () => {
    expect(PresenceMessageSchema.safeParse({ tab: 'tab-0001', graph: 'a/b' }).success).toBe(true);
    expect(PresenceMessageSchema.safeParse({ tab: 'tab-0001', run: 'r1' }).success).toBe(true);
    expect(PresenceMessageSchema.safeParse({ tab: 'tab-0001' }).success).toBe(true);
    const both = PresenceMessageSchema.safeParse({ tab: 'tab-0001', graph: 'g', run: 'r' });
    expect(both.error?.issues[0]?.path).toEqual(['run']);
    expect(PresenceMessageSchema.safeParse({ tab: 'short', graph: 'g' }).success).toBe(false);
    expect(PresenceMessageSchema.safeParse({ tab: 'tab 0001 with spaces' }).success).toBe(false);
    expect(PresenceMessageSchema.safeParse({ tab: 'tab-0001', graph: '' }).success).toBe(false);
    expect(PresenceMessageSchema.safeParse({ tab: 'tab-0001', graph: 'x'.repeat(513) }).success).toBe(false);
    expect(PresenceMessageSchema.safeParse({ tab: 'tab-0001', name: 'Mallory' }).success).toBe(false);
  });
  it('a subject is a room key and back', () => {
    expect(subjectKey({ graph: 'a/b' })).toBe('graph:a/b');
    expect(subjectKey({ run: 'r1' })).toBe('run:r1');
    expect(subjectOf({ run: 'r1' })).toEqual({ run: 'r1' });
    expect(subjectOf({})).toBeNull();
  });
});

describe('presence colour', () => {
  it('is the same for the same id and spreads ids over the palette', () => {
    expect(presenceColour('tab-abc')).toBe(presenceColour('tab-abc'));
    const used = new Set(Array.from({ length: 200 }, (_, i) => presenceColour(`t${i.toString(16)}`)));
    expect(used.size).toBe(PRESENCE_PALETTE.length);
    for (const c of used) expect(PRESENCE_PALETTE).toContain(c);
  });
});

describe('display names', () => {
  it('accepts a plain name and says what is wrong with others', () => {
    expect(displayNameProblem('Ada Lovelace')).toBeUndefined();
    expect(displayNameProblem('')).toMatch(/empty/);
    expect(displayNameProblem(' ada')).toMatch(/spaces/);
    expect(displayNameProblem('a'.repeat(41))).toMatch(/at most 40/);
    expect(displayNameProblem('ada\nx')).toMatch(/control/);
  });
});

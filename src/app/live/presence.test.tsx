// @vitest-environment happy-dom
// Presence on the app side: a server list folds into "the others" (minus this tab, only for what
// this tab shows), the client says what it shows on change and on every connect, and the chips
// draw at most four people, "+N" for the rest, with the names in the aria-label and tooltips.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createStore } from 'zustand/vanilla';
import { presenceColour, type PresenceMember } from '../../domain/protocol/presence.ts';
import { applyPresenceList, initials, PresenceClient, type PresenceState } from './presence.ts';
import { AlsoHere } from './PresenceChips.tsx';

afterEach(() => cleanup());

const member = (id: string, name: string): PresenceMember => ({ id, name, colour: presenceColour(id) });

describe('applyPresenceList', () => {
  const state: PresenceState = { subject: 'graph:demo', others: [] };
  it('keeps everyone but this tab, for the subject this tab shows', () => {
    const next = applyPresenceList(
      state,
      { graph: 'demo', members: [member('me-000001', 'Alice'), member('you-00001', 'Bob')] },
      'me-000001',
    );
    expect(next.others.map((m) => m.name)).toEqual(['Bob']);
  });
  it('keeps the same state when a repeated list names the same people', () => {
    const list = { graph: 'demo', members: [member('you-00001', 'Bob')] };
    const once = applyPresenceList(state, list, 'me-000001');
    expect(applyPresenceList(once, structuredClone(list), 'me-000001')).toBe(once);
    const renamed = { graph: 'demo', members: [{ ...member('you-00001', 'Bob'), name: 'Robert' }] };
    expect(applyPresenceList(once, renamed, 'me-000001').others[0]?.name).toBe('Robert');
  });
  it('ignores a list about something else (sent before a switch) and one that does not parse', () => {
    expect(applyPresenceList(state, { graph: 'other', members: [member('x-0000001', 'X')] }, 'me')).toBe(
      state,
    );
    expect(applyPresenceList(state, { run: 'demo', members: [] }, 'me')).toBe(state);
    expect(applyPresenceList(state, { graph: 'demo', members: [{ id: 1 }] }, 'me')).toBe(state);
    expect(applyPresenceList(state, 'nonsense', 'me')).toBe(state);
  });
});

class FakeSocket {
  connected = false;
  sent: unknown[] = [];
  private fns = new Map<string, Array<(...a: unknown[]) => void>>();
  on(event: string, fn: (...a: unknown[]) => void) {
    this.fns.set(event, [...(this.fns.get(event) ?? []), fn]);
  }
  emit(event: string, ...args: unknown[]) {
    this.sent.push([event, ...args]);
  }
  fire(event: string, ...args: unknown[]) {
    for (const fn of this.fns.get(event) ?? []) fn(...args);
  }
}

describe('PresenceClient', () => {
  it('says what the tab shows on change and after every connect, and forgets the others on disconnect', () => {
    const socket = new FakeSocket();
    const store = createStore<PresenceState>()(() => ({ subject: null, others: [] }));
    const client = new PresenceClient(socket, 'tab-000001', store);
    client.open({ graph: 'demo' }); // not connected yet: sent on connect
    expect(socket.sent).toEqual([]);
    socket.connected = true;
    socket.fire('connect');
    expect(socket.sent).toEqual([['presence', { tab: 'tab-000001', graph: 'demo' }]]);
    socket.fire('presence', {
      graph: 'demo',
      members: [member('tab-000001', 'me'), member('b-0000001', 'Bob')],
    });
    expect(store.getState().others.map((m) => m.name)).toEqual(['Bob']);

    client.open({ graph: 'demo' }); // same subject: nothing new to say
    expect(socket.sent).toHaveLength(1);
    client.open({ run: 'r1' });
    expect(store.getState()).toEqual({ subject: 'run:r1', others: [] });
    expect(socket.sent[1]).toEqual(['presence', { tab: 'tab-000001', run: 'r1' }]);
    // A late list for the graph it left changes nothing.
    socket.fire('presence', { graph: 'demo', members: [member('b-0000001', 'Bob')] });
    expect(store.getState().others).toEqual([]);

    socket.fire('presence', { run: 'r1', members: [member('c-0000001', 'Cleo')] });
    socket.connected = false;
    socket.fire('disconnect');
    expect(store.getState().others).toEqual([]);
    socket.connected = true;
    socket.fire('connect');
    expect(socket.sent[2]).toEqual(['presence', { tab: 'tab-000001', run: 'r1' }]);
    client.open(null);
    expect(socket.sent[3]).toEqual(['presence', { tab: 'tab-000001' }]);
  });
});

describe('the chips', () => {
  it('draws nothing when nobody else is here', () => {
    render(<AlsoHere others={[]} />);
    expect(screen.queryByTestId('presence')).toBeNull();
  });
  it('shows four people, "+N" past them, names on hover and in the aria-label', () => {
    const people = ['Alice Liddell', 'anonymous', 'bob', 'Cleo', 'Dan', 'Eve'].map((n, i) =>
      member(`m-${i}-000000`, n),
    );
    render(<AlsoHere others={people} />);
    const group = screen.getByRole('group');
    expect(group.getAttribute('aria-label')).toBe('Also here: Alice Liddell, anonymous, bob, Cleo, Dan, Eve');
    const chips = screen.getAllByTestId('presence-chip');
    expect(chips.map((c) => c.textContent)).toEqual(['AL', '', 'B', 'C']);
    expect(chips[0]!.getAttribute('title')).toBe('Alice Liddell also has this open');
    expect(chips[1]!.style.backgroundColor).not.toBe('');
    const more = screen.getByTestId('presence-more');
    expect(more.textContent).toBe('+2');
    expect(more.getAttribute('title')).toBe('also here: Dan, Eve');
  });
  it('initials: first letters of the first and last word', () => {
    expect(initials('ada lovelace')).toBe('AL');
    expect(initials('grace.b.hopper')).toBe('GH');
    expect(initials('Ünal')).toBe('Ü');
    expect(initials('anonymous')).toBe('');
  });
});

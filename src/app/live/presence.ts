// Who else has this graph or run open (domain/protocol/presence.ts). The tab tells the server what
// it shows (`presence {tab, graph?|run?}`) whenever that changes and after every (re)connect; the
// server answers everyone who shows the same thing with its member list, which is folded here into
// "the others": the list minus this tab, and only while it is about what this tab shows now.
// The tab id is random per page load, so a reload is a new member (its old socket leaves), and a
// duplicated browser tab (which copies sessionStorage) is still a member of its own.
// The socket is injected (`PresenceSocket`), so this is tested without one.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import {
  PresenceListSchema,
  subjectKey,
  subjectOf,
  type PresenceMember,
  type PresenceSubject,
} from '../../domain/protocol/presence.ts';

export interface PresenceState {
  /** What this tab has open (`graph:<id>` / `run:<id>`), or null. */
  subject: string | null;
  /** Everyone else who has it open, in the server's order (by name). */
  others: PresenceMember[];
}

export const presenceStore = createStore<PresenceState>()(() => ({ subject: null, others: [] }));
export const usePresence = <T>(select: (s: PresenceState) => T): T => useStore(presenceStore, select);

/**
 * Folds a server `presence` message into the state: the others when it is about this tab's subject,
 * the state unchanged when it is about something else (a list sent before a switch), names the same
 * people again, or does not parse.
 */
export function applyPresenceList(state: PresenceState, msg: unknown, self: string): PresenceState {
  const r = PresenceListSchema.safeParse(msg);
  if (!r.success) return state;
  const about = subjectOf(r.data);
  if (!about || subjectKey(about) !== state.subject) return state;
  const others = r.data.members.filter((m) => m.id !== self);
  // The server repeats lists (a periodic refresh): the same people again changes nothing.
  const same =
    others.length === state.others.length &&
    others.every((m, i) => {
      const o = state.others[i]!;
      return m.id === o.id && m.name === o.name && m.colour === o.colour;
    });
  return same ? state : { ...state, others };
}

export interface PresenceSocket {
  on(event: string, fn: (...args: unknown[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  connected: boolean;
}

export function newTabId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `t${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export class PresenceClient {
  private subject: PresenceSubject | null = null;

  constructor(
    private readonly socket: PresenceSocket,
    readonly tab: string = newTabId(),
    private readonly store = presenceStore,
  ) {
    socket.on('presence', (msg: unknown) => this.store.setState((s) => applyPresenceList(s, msg, this.tab)));
    // The server forgot this socket; on the next one, say it again.
    socket.on('connect', () => this.send());
    socket.on('disconnect', () => this.store.setState({ others: [] }));
  }

  /** This tab now shows `subject` (null: nothing the others could share, e.g. an unsaved graph). */
  open(subject: PresenceSubject | null): void {
    const key = subject ? subjectKey(subject) : null;
    if (key === this.store.getState().subject) return;
    this.subject = subject;
    this.store.setState({ subject: key, others: [] });
    this.send();
  }

  private send(): void {
    if (!this.socket.connected) return; // sent on connect
    this.socket.emit('presence', { tab: this.tab, ...(this.subject ?? {}) });
  }
}

/** Up to two initials of a display name ("" for anonymous: its chip is its colour alone). */
export function initials(name: string): string {
  if (name === 'anonymous') return '';
  const words = name.split(/[\s._-]+/u).filter((w) => w.length > 0);
  const letters = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words.slice(0, 1);
  return letters.map((w) => Array.from(w)[0]!.toUpperCase()).join('');
}

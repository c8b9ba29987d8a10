// Presence: who else has a graph file or a run open. Part of the live protocol, beside the run
// events (protocol.ts) but outside any run's log: nothing here is stored, stamped or replayed.
//   client → server  `presence {tab, graph?} | {tab, run?}`: what this tab has open now (neither =
//                    nothing); sent again after every (re)connect, since the server forgets a socket
//                    that went away.
//   server → client  `presence {graph?|run?, members}`: everyone who has that subject open, sent to
//                    all of them each time someone arrives or leaves (on any server instance).
// A new message type that an older editor never sends and never receives, so the protocol version
// (liveVersion.ts) is unchanged.
import { z } from 'zod';

/** A tab's id: random, kept for the life of the tab (sessionStorage), so a reconnect is the same member. */
export const PresenceTabIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'a tab id is 8–64 letters, digits, "_" or "-"');

/** What a subject key may be: a graph id (workspace-relative path) or a run id. Not a file access. */
const SubjectSchema = z.string().min(1).max(512);

export const PresenceMessageSchema = z
  .object({
    tab: PresenceTabIdSchema,
    graph: SubjectSchema.optional(),
    run: SubjectSchema.optional(),
  })
  .strict()
  .refine((m) => m.graph === undefined || m.run === undefined, {
    message: 'presence names a graph or a run, not both',
    path: ['run'],
  });
export type PresenceMessage = z.infer<typeof PresenceMessageSchema>;

export const PresenceMemberSchema = z.object({
  /** The member's tab id. */
  id: z.string(),
  /** The token's label, the server's `--user`, or "anonymous". */
  name: z.string(),
  /** A CSS colour from PRESENCE_PALETTE, derived from `id`. */
  colour: z.string(),
});
export type PresenceMember = z.infer<typeof PresenceMemberSchema>;

export const PresenceListSchema = z.object({
  graph: z.string().optional(),
  run: z.string().optional(),
  members: z.array(PresenceMemberSchema),
});
export type PresenceList = z.infer<typeof PresenceListSchema>;

/** What a tab has open, as a room key: `graph:<id>` or `run:<id>`. */
export type PresenceSubject = { graph: string } | { run: string };

export const subjectKey = (s: PresenceSubject): string =>
  'graph' in s ? `graph:${s.graph}` : `run:${s.run}`;

/** The subject a message or list is about, or null for "nothing open". */
export function subjectOf(m: { graph?: string; run?: string }): PresenceSubject | null {
  if (m.graph !== undefined) return { graph: m.graph };
  if (m.run !== undefined) return { run: m.run };
  return null;
}

export const ANONYMOUS = 'anonymous';

/**
 * Chip colours: mid-light tones that dark text (#09090b) reads on with contrast ≥ 7:1, and that
 * stand apart from the editor's dark zinc background and its light theme alike.
 */
export const PRESENCE_PALETTE: readonly string[] = [
  '#38bdf8', // sky
  '#34d399', // emerald
  '#fbbf24', // amber
  '#fb7185', // rose
  '#a78bfa', // violet
  '#a3e635', // lime
  '#fb923c', // orange
  '#2dd4bf', // teal
  '#e879f9', // fuchsia
  '#93c5fd', // blue
];

/** The same id always gets the same colour (FNV-1a over its UTF-16 units). */
export function presenceColour(id: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return PRESENCE_PALETTE[h % PRESENCE_PALETTE.length]!;
}

/** A display name as the server accepts it from `--user` or a token label: printable, trimmed, ≤ 40 characters. */
export function displayNameProblem(name: string): string | undefined {
  if (name.trim() !== name || name.length === 0) return 'must not be empty or start/end with spaces';
  if (name.length > 40) return `must be at most 40 characters (got ${name.length})`;
  if (/\p{Cc}/u.test(name)) return 'must not contain control characters';
  return undefined;
}

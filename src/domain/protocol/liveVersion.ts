// The live protocol's version. The server sends it first on every socket connection (`hello`); an
// editor built for another version stops there with a clear message instead of misreading events.
// Bump it when an event's shape or meaning changes in a way an older editor would misread
// (bundles have their own version: runBundle.schema.ts).
import { z } from 'zod';

// 2: `subscribe {packed: true}` and packed `events` batches (packedEvents.ts).
// 3: every `events` batch is packed (the array form is gone; `packed` is ignored).
export const LIVE_PROTOCOL_VERSION = 3;

/** Server → client, once per connection, before any other message. */
export const HelloSchema = z.object({ type: z.literal('hello'), protocol: z.number().int() });
export type Hello = z.infer<typeof HelloSchema>;

export const hello = (protocol: number = LIVE_PROTOCOL_VERSION): Hello => ({ type: 'hello', protocol });

/** Why this editor cannot follow the server, or null when it can. Never throws. */
export function protocolMismatch(msg: unknown, mine: number = LIVE_PROTOCOL_VERSION): string | null {
  const parsed = HelloSchema.safeParse(msg);
  if (!parsed.success)
    return `the server sent an unreadable hello; this editor speaks live protocol ${mine} — reload the page`;
  const theirs = parsed.data.protocol;
  if (theirs === mine) return null;
  return `server speaks live protocol ${theirs}, this editor speaks ${mine} — reload the page`;
}

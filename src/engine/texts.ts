// One copy per text a run's history holds. Handlers build their texts anew every step (a policy's
// reason, "x,y" cells of a visited list), and most of them repeat what an earlier step wrote: kept
// by every checkpoint, each repeat is one more copy of the same characters (~30-80 bytes). Strings
// are values (no reader can tell two copies apart), so a checkpoint may hold the first copy instead.

/** Texts longer than this are rarely repeated word for word; pooling them would only hold them. */
const MAX_LENGTH = 256;
/** Bounds what the pool itself keeps alive when a run's texts do not repeat. */
const MAX_TEXTS = 4096;

export class TextPool {
  private readonly texts = new Map<string, string>();

  /** The pool's earlier copy of `s`, or undefined when there is none (`s` may become that copy). */
  earlier(s: string): string | undefined {
    if (s.length > MAX_LENGTH) return undefined;
    const known = this.texts.get(s);
    if (known === undefined && this.texts.size < MAX_TEXTS) this.texts.set(s, s);
    return known;
  }
}

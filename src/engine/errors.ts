// Typed errors the engine raises. A BuildError means the graph cannot run at all (reported to the
// caller before any event); the others fail one node fire and are routed as that node's error.

export class BuildError extends Error {
  override name = 'BuildError';
  constructor(
    message: string,
    /** Where: container/slot/node ids, for the host to show next to the message. */
    readonly where: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Read/write of an undeclared slot, or a bad reducer update. */
export class SlotError extends Error {
  override name = 'SlotError';
}

/** A node touched a container it holds no grant for. */
export class GrantError extends Error {
  override name = 'GrantError';
}

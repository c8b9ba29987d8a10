import { describe, expect, it } from 'vitest';
import { hello, LIVE_PROTOCOL_VERSION, protocolMismatch } from './liveVersion.ts';

describe('protocolMismatch', () => {
  it('accepts the same version', () => {
    expect(protocolMismatch(hello())).toBeNull();
    expect(protocolMismatch({ type: 'hello', protocol: 7 }, 7)).toBeNull();
  });
  it('names both versions when they differ', () => {
    expect(protocolMismatch(hello(LIVE_PROTOCOL_VERSION + 1))).toBe(
      `server speaks live protocol ${LIVE_PROTOCOL_VERSION + 1}, this editor speaks ${LIVE_PROTOCOL_VERSION} — reload the page`,
    );
  });
  it('says so for a hello it cannot read, without throwing', () => {
    for (const bad of [undefined, null, 'x', { type: 'hello' }, { type: 'hello', protocol: 'one' }])
      expect(protocolMismatch(bad, 3)).toMatch(/unreadable hello; this editor speaks live protocol 3/);
  });
});

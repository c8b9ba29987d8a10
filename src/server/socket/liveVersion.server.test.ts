// The live protocol's version reaches a real socket.io client first thing on connection, and a
// server made to speak another version (a test-only option) is refused by the editor's check.
import { afterEach, describe, expect, it } from 'vitest';
import { io as connect } from 'socket.io-client';
import { LIVE_PROTOCOL_VERSION, protocolMismatch } from '../../domain/protocol/liveVersion.ts';
import { createServer, type StatewireServer } from '../app.ts';
import { tempWorkspace } from '../test/serverProcess.testutil.ts';

let server: StatewireServer | undefined;
let ws: ReturnType<typeof tempWorkspace> | undefined;
afterEach(async () => {
  await server?.close();
  ws?.cleanup();
});

async function firstHello(liveProtocol?: number): Promise<unknown> {
  ws = tempWorkspace();
  server = await createServer({ workspace: ws.dir, port: 0, logger: false, liveProtocol });
  const { url } = await server.listen();
  const socket = connect(url, { reconnection: false, forceNew: true, transports: ['websocket'] });
  try {
    return await new Promise((resolve, reject) => {
      socket.on('hello', resolve);
      socket.on('connect_error', reject);
    });
  } finally {
    socket.close();
  }
}

describe('live protocol version in the socket handshake', () => {
  it('the server says hello with its version, which this editor accepts', async () => {
    const msg = await firstHello();
    expect(msg).toEqual({ type: 'hello', protocol: LIVE_PROTOCOL_VERSION });
    expect(protocolMismatch(msg)).toBeNull();
  });
  it('another version is refused with a message naming both', async () => {
    const msg = await firstHello(LIVE_PROTOCOL_VERSION + 41);
    expect(protocolMismatch(msg)).toBe(
      `server speaks live protocol ${LIVE_PROTOCOL_VERSION + 41}, this editor speaks ${LIVE_PROTOCOL_VERSION} — reload the page`,
    );
  });
});

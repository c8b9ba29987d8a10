// The service client's JSON encoding at its edges, against a real HTTP server that answers like a
// service: what JSON cannot carry is refused before anything is sent, naming the port, and an IMAGE
// output that is not a base64 PNG is a node error whatever its length (docs/value-encodings.md).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeNdArray } from '../../domain/services/ndarray.ts';
import { ServiceClient } from './serviceClient.ts';

let server: Server;
let url = '';
const received: string[] = [];
/** What the fake service answers to the next call. */
let answer: unknown = { outputs: {} };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = () => new ServiceClient('toy', url, 'json', 5_000);
const none = new Set<string>();

describe('service client, JSON encoding', () => {
  it('refuses NaN and bytes in inputs or config, naming where, and sends nothing', async () => {
    received.length = 0;
    await expect(client().call('f', { inputs: { x: [1, NaN] }, config: {} }, none, none)).rejects.toThrow(
      "service 'toy' function 'f': inputs.x[1]: NaN has no JSON form (use the msgpack encoding)",
    );
    await expect(
      client().call('f', { inputs: {}, config: { blob: new Uint8Array([1]) } }, none, none),
    ).rejects.toThrow("service 'toy' function 'f': config.blob: bytes have no JSON form");
    expect(received).toEqual([]);
  });

  it('sends an IMAGE input as PNG and reads an IMAGE output back from PNG', async () => {
    const img = makeNdArray('uint8', [1, 2, 3], new Uint8Array([1, 2, 3, 4, 5, 6]));
    received.length = 0;
    answer = { outputs: { echo: null } };
    await client().call('f', { inputs: { img }, config: {} }, new Set(['img']), none);
    const sent = (JSON.parse(received[0]!) as { inputs: { img: string } }).inputs.img;
    expect(Buffer.from(sent, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
    answer = { outputs: { echo: sent } };
    const back = await client().call('f', { inputs: {}, config: {} }, none, new Set(['echo']));
    expect(back.outputs.echo).toEqual(img);
  });

  it('a short string on an IMAGE output is an error, not a value', async () => {
    answer = { outputs: { img: 'none' } };
    await expect(client().call('f', { inputs: {}, config: {} }, none, new Set(['img']))).rejects.toThrow(
      "service 'toy' function 'f': output 'img' is not a base64 PNG (not a PNG (bad signature))",
    );
  });
});

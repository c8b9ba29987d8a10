// The OpenAI-compatible LLM provider (engine/llm.providers.ts) against a real loopback HTTP endpoint
// that speaks the chat-completions shape, so the `openai` client wiring (base URL, key, model,
// system/user messages, n, usage) is exercised without network. Lives in the server layer because
// the fake endpoint needs node:http, which the engine layer may not import.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerFromEnv } from '../../engine/llm.providers.ts';

interface Seen {
  url: string;
  auth: string | undefined;
  body: { model: string; messages: { role: string; content: string }[]; n?: number; max_tokens?: number };
}

let server: Server;
let base = '';
const seen: Seen[] = [];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done) => {
    let s = '';
    req.on('data', (c: Buffer) => (s += c.toString('utf8')));
    req.on('end', () => done(s));
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void readBody(req).then((text) => {
      const body = JSON.parse(text) as Seen['body'];
      seen.push({ url: req.url ?? '', auth: req.headers.authorization, body });
      const prompt = body.messages.at(-1)?.content ?? '';
      const n = body.n ?? 1;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'cmpl-1',
          object: 'chat.completion',
          created: 0,
          model: `${body.model}-served`,
          choices: Array.from({ length: n }, (_, i) => ({
            index: i,
            finish_reason: 'stop',
            message: { role: 'assistant', content: `reply ${i} to: ${prompt}` },
          })),
          usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
        }),
      );
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
});

describe('providerFromEnv', () => {
  it('is undefined unless both the base URL and the model are configured', () => {
    expect(providerFromEnv({})).toBeUndefined();
    expect(providerFromEnv({ STATEWIRE_LLM_BASE_URL: base })).toBeUndefined();
    expect(providerFromEnv({ STATEWIRE_LLM_MODEL: 'm' })).toBeUndefined();
  });

  it('calls the configured chat-completions endpoint with key, model, system and prompt', async () => {
    const p = providerFromEnv({
      STATEWIRE_LLM_BASE_URL: base,
      STATEWIRE_LLM_API_KEY: 'sk-test',
      STATEWIRE_LLM_MODEL: 'tiny',
    });
    expect(p?.name).toBe('openai:tiny');
    const res = await p!.complete({
      system: 'be brief',
      prompt: 'Next move?',
      temperature: 0,
      max_tokens: 32,
      n: 2,
    });
    expect(res.texts).toEqual(['reply 0 to: Next move?', 'reply 1 to: Next move?']);
    expect(res.usage).toMatchObject({ calls: 1, model: 'tiny-served', prompt_tokens: 7, total_tokens: 10 });
    const last = seen.at(-1)!;
    expect(last.url).toBe('/v1/chat/completions');
    expect(last.auth).toBe('Bearer sk-test');
    expect(last.body).toMatchObject({
      model: 'tiny',
      n: 2,
      max_tokens: 32,
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'Next move?' },
      ],
    });
  });

  it('a request model overrides the configured one; no system message when none is given', async () => {
    const p = providerFromEnv({ STATEWIRE_LLM_BASE_URL: base, STATEWIRE_LLM_MODEL: 'tiny' })!;
    await p.complete({ system: '', prompt: 'hi', temperature: 0, max_tokens: 8, n: 1, model: 'other' });
    const last = seen.at(-1)!;
    expect(last.body.model).toBe('other');
    expect(last.body.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });
});

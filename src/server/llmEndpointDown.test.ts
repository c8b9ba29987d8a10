// An OpenAI-compatible endpoint that is down: the provider's error — and so the llmCall node error a
// user sees — names the URL and the model instead of the client's bare "Connection error.". The
// endpoint is a real loopback port that was bound and closed again (node:http, hence the server layer).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { providerFromEnv } from '../engine/llm.providers.ts';
import { edge, graph, node, runAll } from '../engine/testkit.ts';

let base = '';

beforeAll(async () => {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  base = `http://127.0.0.1:${port}/v1`;
});

describe('an LLM endpoint that is down', () => {
  it('the provider error names the URL, the model and the cause', async () => {
    const p = providerFromEnv({ STATEWIRE_LLM_BASE_URL: base, STATEWIRE_LLM_MODEL: 'tiny' })!;
    const req = { system: '', prompt: 'hi', temperature: 0, max_tokens: 8, n: 1 };
    const err = await p.complete(req).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toBe(`LLM endpoint ${base} (model tiny) failed: Connection error. [ECONNREFUSED]`);
    // A request-level model override is the model that was asked for.
    const other = await p.complete({ ...req, model: 'big' }).catch((e: unknown) => e as Error);
    expect((other as Error).message).toContain(`LLM endpoint ${base} (model big) failed`);
  });

  it('the llmCall node error of a run says which endpoint and model failed', async () => {
    const llm = providerFromEnv({ STATEWIRE_LLM_BASE_URL: base, STATEWIRE_LLM_MODEL: 'tiny' })!;
    const g = graph({
      nodes: [node('s', 'constant', { value: 'Next move?' }), node('ask', 'llmCall', {})],
      edges: [edge('s.value', 'ask.prompt')],
    });
    const r = await runAll(g, { llm });
    const messages = r.of('error_event').map((e) => e.message);
    expect(messages[0]).toContain(`LLM endpoint ${base} (model tiny) failed: Connection error.`);
  });
});

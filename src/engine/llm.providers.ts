// LLM providers for llmCall. The offline provider is the default everywhere (tests, demos, CLI): it
// is deterministic and needs no network. The OpenAI-compatible provider uses the official `openai`
// client against any endpoint configured by STATEWIRE_LLM_BASE_URL / _API_KEY / _MODEL.
import type OpenAI from 'openai';
import type { LlmProvider, LlmRequest, LlmResponse } from './handler.types.ts';

/** Echoes the prompt, so a graph's data flow is visible without a model. */
export const offlineProvider: LlmProvider = {
  name: 'offline',
  complete(req: LlmRequest): Promise<LlmResponse> {
    const text = `[offline] ${req.prompt}`.slice(0, Math.max(16, req.max_tokens * 4));
    const texts = Array.from({ length: Math.max(1, req.n) }, () => text);
    return Promise.resolve({
      texts,
      usage: { calls: 1, model: 'offline', prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
  },
};

export interface LlmEnv {
  STATEWIRE_LLM_BASE_URL?: string;
  STATEWIRE_LLM_API_KEY?: string;
  STATEWIRE_LLM_MODEL?: string;
}

/** The innermost `code` (e.g. ECONNREFUSED) on an error's cause chain, if any. */
function causeCode(e: unknown): string | undefined {
  let code: string | undefined;
  for (let c: unknown = e, depth = 0; c instanceof Error && depth < 8; c = c.cause, depth++) {
    const k = (c as { code?: unknown }).code;
    if (typeof k === 'string' && k) code = k;
  }
  return code;
}

/**
 * A failed call as an error that names the endpoint and the model, so "Connection error." alone
 * never reaches the user: `LLM endpoint <url> (model <m>) failed: <reason> [<code>]`.
 */
export function endpointError(e: unknown, baseURL: string, model: string): Error {
  const reason = e instanceof Error ? e.message : String(e);
  const code = causeCode(e);
  const detail = code && !reason.includes(code) ? ` [${code}]` : '';
  return new Error(`LLM endpoint ${baseURL} (model ${model}) failed: ${reason}${detail}`, { cause: e });
}

/** The OpenAI-compatible provider when the environment names an endpoint and a model, else undefined. */
export function providerFromEnv(env: LlmEnv): LlmProvider | undefined {
  const baseURL = env.STATEWIRE_LLM_BASE_URL;
  const model = env.STATEWIRE_LLM_MODEL;
  if (!baseURL || !model) return undefined;
  // The client library is loaded on the first call: a process that never calls a model (an episode
  // worker of a graph without llmCall, `statewire check`) does not pay its ~250 ms import.
  let client: OpenAI | undefined;
  const connect = async (): Promise<OpenAI> => {
    const { default: Client } = await import('openai');
    return (client ??= new Client({ baseURL, apiKey: env.STATEWIRE_LLM_API_KEY || 'not-needed' }));
  };
  return {
    name: `openai:${model}`,
    async complete(req, signal) {
      const started = Date.now();
      const used = req.model || model;
      const res = await (client ?? (await connect())).chat.completions
        .create(
          {
            model: used,
            messages: [
              ...(req.system ? [{ role: 'system' as const, content: req.system }] : []),
              { role: 'user' as const, content: req.prompt },
            ],
            temperature: req.temperature,
            max_tokens: req.max_tokens,
            n: req.n,
          },
          { signal },
        )
        .catch((e: unknown) => {
          throw endpointError(e, baseURL, used);
        });
      return {
        texts: res.choices.map((c) => c.message.content ?? ''),
        usage: {
          calls: 1,
          model: res.model,
          prompt_tokens: res.usage?.prompt_tokens ?? 0,
          completion_tokens: res.usage?.completion_tokens ?? 0,
          total_tokens: res.usage?.total_tokens ?? 0,
          duration_ms: Date.now() - started,
        },
      };
    },
  };
}

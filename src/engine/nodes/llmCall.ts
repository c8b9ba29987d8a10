// llmCall (docs/reference-system.md §1.8, 3.7): fills `{var}` template placeholders from its inputs, then from
// granted graph_state slots (lists joined by newlines); optional scripted `config.responses` (a
// deterministic list cycled per call); `write_to_state` writes the response into a graph_state slot;
// `mode: "conversation"` appends user/assistant turns to graph_state `messages`. Provider calls go
// through ctx.effect, so recorded responses replay on restore/fork (docs/architecture.md "Run state and durability").
import { cfgNumber, cfgString, type ContainerHandle, type NodeHandler } from '../handler.types.ts';

const asText = (v: unknown): string =>
  typeof v === 'string'
    ? v
    : Array.isArray(v)
      ? v.map(asText).join('\n')
      : v === null || v === undefined
        ? ''
        : JSON.stringify(v);

export function fillTemplate(
  template: string,
  inputs: Readonly<Record<string, unknown>>,
  gs: ContainerHandle | null,
): string {
  const slots = gs ? new Set(gs.slots()) : new Set<string>();
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
    if (Object.hasOwn(inputs, name)) return asText(inputs[name]);
    if (gs && slots.has(name)) return asText(gs.read(name));
    return whole;
  });
}

interface LlmState {
  calls: number;
}

export const llmCall: NodeHandler = {
  initState: () => ({ calls: 0 }),
  async fire(inputs, ctx) {
    const cfg = ctx.node.config;
    const st = ctx.state as LlmState;
    const gs = ctx.graph_state;
    const template = cfgString(cfg, 'template');
    const prompt = template
      ? fillTemplate(template, inputs, gs)
      : Object.entries(inputs)
          .filter(([k]) => k !== 'system_prompt')
          .map(([k, v]) => `${k}: ${asText(v)}`)
          .join('\n');
    const system = [fillTemplate(cfgString(cfg, 'system_prompt'), inputs, gs), asText(inputs.system_prompt)]
      .filter(Boolean)
      .join('\n');
    const conversation = cfgString(cfg, 'mode', 'single_turn') === 'conversation';
    if (conversation && (!gs || !gs.slots().includes('messages'))) {
      throw new Error(
        `llmCall '${ctx.node.id}': mode "conversation" needs a grant to graph_state with a 'messages' slot`,
      );
    }
    let texts: string[];
    const scripted = Array.isArray(cfg.responses) ? cfg.responses : [];
    if (scripted.length > 0) {
      texts = [fillTemplate(asText(scripted[st.calls % scripted.length]), inputs, gs)];
    } else {
      const req = {
        system,
        prompt,
        temperature: cfgNumber(cfg, 'temperature', 0),
        max_tokens: cfgNumber(cfg, 'max_tokens', 256),
        n: Math.max(1, cfgNumber(cfg, 'n', 1)),
        ...(typeof cfg.model === 'string' && cfg.model ? { model: cfg.model } : {}),
      };
      const res = await ctx.effect({ provider: ctx.llm.name, ...req }, () =>
        ctx.llm.complete(req, ctx.signal),
      );
      texts = res.texts;
      ctx.reportUsage({ provider: ctx.llm.name, ...res.usage });
    }
    const response = texts[0] ?? '';
    if (conversation && gs) {
      gs.write('messages', { role: 'user', content: prompt });
      gs.write('messages', { role: 'assistant', content: response });
    }
    const target = cfgString(cfg, 'write_to_state');
    if (target) {
      if (!gs)
        throw new Error(`llmCall '${ctx.node.id}': write_to_state '${target}' needs a grant to graph_state`);
      gs.write(target, response);
    }
    return { outputs: { response, responses: texts }, state: { calls: st.calls + 1 } };
  },
};

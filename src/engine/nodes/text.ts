// Text processing handlers: textParse (choice/regex/json_field) and historyLog, whose history is
// node-local state (docs/architecture.md "Run state and durability"): visible in nav_step.nodeStates and checkpointed, unlike the reference.
import { cfgNumber, cfgString, type NodeHandler } from '../handler.types.ts';

const asText = (v: unknown): string =>
  typeof v === 'string' ? v : v === null || v === undefined ? '' : JSON.stringify(v);

export const textParse: NodeHandler = {
  fire(inputs, ctx) {
    const text = asText(inputs.text);
    const cfg = ctx.node.config;
    const mode = cfgString(cfg, 'mode', 'choice');
    if (mode === 'regex') {
      const pattern = cfgString(cfg, 'pattern');
      let re: RegExp;
      try {
        re = new RegExp(pattern);
      } catch (e) {
        throw new Error(`textParse: invalid pattern ${JSON.stringify(pattern)}: ${(e as Error).message}`, {
          cause: e,
        });
      }
      const m = re.exec(text);
      const value = m ? (m[1] ?? m[0]) : '';
      return {
        outputs: { value, index: m ? m.index : -1, rest: m ? text.slice(m.index + m[0].length) : text },
      };
    }
    if (mode === 'json_field') {
      const key = cfgString(cfg, 'json_key');
      try {
        const obj = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as Record<
          string,
          unknown
        >;
        return { outputs: { value: asText(obj[key]), index: 0, rest: '' } };
      } catch {
        return { outputs: { value: '', index: -1, rest: text } };
      }
    }
    const choices = cfgString(cfg, 'choices', 'STOP,FORWARD,LEFT,RIGHT')
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    const upper = text.toUpperCase();
    let best = -1;
    let at = Infinity;
    choices.forEach((c, i) => {
      const pos = upper.indexOf(c.toUpperCase());
      if (pos >= 0 && pos < at) {
        at = pos;
        best = i;
      }
    });
    return {
      outputs: {
        value: best >= 0 ? choices[best] : '',
        index: best,
        rest: best >= 0 ? text.slice(at + choices[best]!.length) : text,
      },
    };
  },
};

export const historyLog: NodeHandler = {
  initState: () => ({ entries: [] as string[], count: 0 }),
  fire(inputs, ctx) {
    const prev = ctx.state as { entries: readonly string[]; count: number };
    const max = Math.max(1, cfgNumber(ctx.node.config, 'max_entries', 20));
    const template = cfgString(ctx.node.config, 'template', 'Step {step}: {entry}');
    let entries = prev.entries;
    let count = prev.count;
    if (inputs.entry !== undefined) {
      const line = template
        .replaceAll('{step}', String(ctx.step))
        .replaceAll('{entry}', asText(inputs.entry));
      entries = [...entries, line].slice(-max);
      count += 1;
    }
    return { outputs: { history: entries.join('\n') }, state: { entries, count } };
  },
};

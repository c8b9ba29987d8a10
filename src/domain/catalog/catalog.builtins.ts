// The built-in node types' static descriptions (ports, config, docs). Their handlers live in
// src/engine/nodes/; this file is pure data so the validator and the editor can use it anywhere.
import { BUILTIN_DOCS } from './catalog.docs.ts';
import { makeCatalog, type NodeSpecInput } from './catalog.schema.ts';
import { ITER_IN_COUNTER_PORTS } from '../flow/loopPorts.ts';

const p = (name: string, wire_type = 'ANY', optional = true, description = '') => ({
  name,
  wire_type,
  optional,
  description,
});

/** A small JSON Schema for a node's config (`config_schema`), so the editor can render typed fields. */
type Prop = { type: string; description?: string; enum?: string[]; items?: unknown; default?: unknown };
const cfg = (properties: Record<string, Prop>) => ({
  type: 'object',
  properties,
  additionalProperties: true,
});
const str = (description: string, extra: Partial<Prop> = {}): Prop => ({
  type: 'string',
  description,
  ...extra,
});
const num = (description: string): Prop => ({ type: 'number', description });
const bool = (description: string): Prop => ({ type: 'boolean', description });

const SCHEMAS: Record<string, Record<string, unknown>> = {
  iterIn: cfg({
    pairedWith: str('id of the paired iterOut'),
    initPorts: { type: 'array', description: 'run-start ports {name, wire_type, persist}' },
    step_budget: num('iterations of this loop scope (default: enclosing scope / graph step_budget)'),
  }),
  iterOut: cfg({
    pairedWith: str('id of the paired iterIn'),
    ports: { type: 'array', description: 'carry ports {name, wire_type, persist, required}' },
  }),
  graphIn: cfg({
    portName: str('composite input port name', { default: 'input' }),
    wireType: str('wire type shown in the editor'),
  }),
  graphOut: cfg({
    portName: str('output name (nav_step key, composite output port)', { default: 'output' }),
    wireType: str('wire type shown in the editor'),
  }),
  nullSource: cfg({ wire_type: str('wire type of `value`') }),
  constant: cfg({
    value: { type: 'any', description: 'the JSON value emitted once at run start' },
    wire_type: str('wire type of `value`'),
  }),
  note: cfg({ markdown: str('note text (markdown)') }),
  llmCall: cfg({
    template: str('prompt template; {var} filled from inputs, then from granted graph_state slots'),
    system_prompt: str('system prompt (template too)'),
    write_to_state: str('graph_state slot that receives the response'),
    mode: str('single_turn or conversation (appends turns to graph_state.messages)', {
      enum: ['single_turn', 'conversation'],
    }),
    responses: {
      type: 'array',
      items: { type: 'string' },
      description: 'offline script: responses cycled per call (no provider call)',
    },
    temperature: num('sampling temperature'),
    max_tokens: num('max tokens'),
    n: num('number of completions'),
    model: str('model override'),
  }),
  textParse: cfg({
    mode: str('choice, regex or json_field', { enum: ['choice', 'regex', 'json_field'] }),
    choices: str('comma-separated choices (mode choice)'),
    pattern: str('regular expression; group 1 or the whole match (mode regex)'),
    json_key: str('field to extract (mode json_field)'),
  }),
  historyLog: cfg({
    max_entries: num('entries kept'),
    template: str('line template with {step} and {entry}'),
  }),
  stateRead: cfg({
    container: str('granted container id'),
    state: str('slot name'),
    key: str('keyed partition (optional)'),
  }),
  stateEvict: cfg({
    container: str('granted container id'),
  }),
  stateWrite: cfg({
    container: str('granted container id'),
    state: str('slot name'),
    key: str('keyed partition (optional)'),
    value: { type: 'any', description: 'write this constant instead of the input (optional)' },
  }),
  emitSignal: cfg({
    signal: str('signal name'),
    payload: { type: 'any', description: 'payload (default: the trigger value)' },
    only_if_truthy: bool('emit only when the trigger is truthy'),
  }),
  gridEnv: cfg({
    seed: num('PRNG seed'),
    width: num('grid width'),
    height: num('grid height'),
    max_episode_steps: num('steps before an episode ends'),
    obstacle_ratio: num('share of obstacle cells (0..1)'),
    name: str('name shown in observations'),
  }),
  gridPolicy: cfg({
    seed: num('PRNG seed'),
    epsilon: num('exploration rate (0..1)'),
    visited_slot: str('graph_state slot (union) for visited cells; empty = off'),
    count_slot: str('graph_state slot (counter) incremented per decision; empty = off'),
  }),
};

/** The optional `key` input of stateRead/stateWrite (the handler keys a number as its decimal text). */
const KEY_INPUT = p(
  'key',
  'TEXT',
  true,
  'keyed partition (a string, or a number used as its decimal text); overrides config.key',
);

const TEXT_INPUTS = ['scene', 'history', 'plan', 'instruction', 'context', 'system_prompt', 'prompt'];

export const BUILTIN_NODE_SPECS: NodeSpecInput[] = [
  {
    type: 'iterIn',
    display_name: 'Iter In',
    category: 'control',
    icon: 'repeat',
    description: 'Loop entry pivot. Paired with an iterOut; carries values between iterations.',
    default_config: { version: 3, initPorts: [] },
    ui_config: { color: '#0ea5e9', layout: 'block', config_fields: [], display_fields: [] },
    output_ports: ITER_IN_COUNTER_PORTS.map((c) => p(c.name, c.wire_type, true, c.description)),
    docs: 'Ports: `init_<x>` for each initPort (run-start side), `iterout_<x>` for each carry port of the paired iterOut, `step` and `iteration`.',
  },
  {
    type: 'iterOut',
    display_name: 'Iter Out',
    category: 'control',
    icon: 'corner-down-left',
    description: 'Loop exit pivot. A truthy `stop` ends the loop; `final_<x>` fire once when it ends.',
    default_config: { ports: [{ name: 'value', wire_type: 'ANY', persist: true }] },
    ui_config: { color: '#0ea5e9', layout: 'block', config_fields: [], display_fields: [] },
    input_ports: [p('stop', 'BOOL')],
    output_ports: [p('final_stop', 'BOOL')],
  },
  {
    type: 'graphIn',
    display_name: 'Graph In',
    category: 'control',
    icon: 'log-in',
    description: 'Input port of a composite (its name is config.portName).',
    default_config: { portName: 'input' },
    output_ports: [p('value')],
  },
  {
    type: 'graphOut',
    display_name: 'Graph Out',
    category: 'control',
    icon: 'log-out',
    description: 'Output port of a graph or composite; its value appears in nav_step under portName.',
    default_config: { portName: 'output' },
    input_ports: [p('value')],
  },
  {
    type: 'nullSource',
    display_name: 'Null Source',
    category: 'control',
    icon: 'circle-dot',
    description: 'Emits null on `value` once at run start (wire type from config.wire_type).',
    default_config: { wire_type: 'ANY' },
    output_ports: [p('value')],
  },
  {
    type: 'constant',
    display_name: 'Constant',
    category: 'control',
    icon: 'hash',
    description: 'Emits config.value once at run start.',
    default_config: { value: '', wire_type: 'ANY' },
    output_ports: [p('value')],
  },
  {
    type: 'note',
    display_name: 'Note',
    category: 'annotation',
    icon: 'sticky-note',
    description: 'A markdown note on the canvas; never executes.',
    default_config: { markdown: '' },
  },
  {
    type: 'llmCall',
    display_name: 'LLM Call',
    category: 'llm',
    icon: 'sparkles',
    ports_mode: 'input',
    description: 'Calls an OpenAI-compatible model (offline deterministic provider by default).',
    default_config: {
      profile: '',
      template: '',
      system_prompt: '',
      temperature: 0,
      max_tokens: 256,
      mode: 'single_turn',
    },
    ui_config: {
      color: '#a855f7',
      layout: 'block',
      config_fields: ['template', 'system_prompt', 'write_to_state'],
      display_fields: [],
    },
    input_ports: [
      ...TEXT_INPUTS.map((n) => p(n, 'TEXT')),
      p('pose', 'POSE'),
      p('rgb', 'LIST[IMAGE]'),
      p('image_labels', 'LIST[TEXT]'),
    ],
    output_ports: [p('response', 'TEXT'), p('responses', 'LIST[TEXT]')],
    docs: 'Unresolved `{var}` placeholders in the template are filled from granted `graph_state` slots. `write_to_state` writes the response to that graph_state slot.',
  },
  {
    type: 'textParse',
    display_name: 'Text Parse',
    category: 'processing',
    icon: 'scan-text',
    description: 'Extracts a choice, regex match or JSON field from text.',
    default_config: { mode: 'choice', choices: 'STOP,FORWARD,LEFT,RIGHT', pattern: '', json_key: '' },
    input_ports: [p('text', 'TEXT', false)],
    output_ports: [p('value', 'TEXT'), p('index', 'ACTION'), p('rest', 'TEXT')],
  },
  {
    type: 'historyLog',
    display_name: 'History Log',
    category: 'processing',
    icon: 'history',
    description: 'Keeps the last N entries in node-local state and emits them as text.',
    default_config: { max_entries: 20, template: 'Step {step}: {entry}' },
    input_ports: [p('entry', 'TEXT')],
    output_ports: [p('history', 'TEXT')],
  },
  {
    type: 'stateRead',
    display_name: 'State Read',
    category: 'state',
    icon: 'database',
    description: 'Reads a slot of a granted container when triggered.',
    default_config: { container: '', state: '' },
    input_ports: [p('trigger', 'ANY'), KEY_INPUT],
    output_ports: [p('value', 'ANY')],
  },
  {
    type: 'stateWrite',
    display_name: 'State Write',
    category: 'state',
    icon: 'database',
    description: 'Writes its input into a slot of a granted container, then passes the value on.',
    default_config: { container: '', state: '' },
    docs: 'Optional `key` writes a keyed partition; optional `value` writes that constant instead of the input (the input then only triggers).',
    input_ports: [p('value', 'ANY', false), KEY_INPUT],
    output_ports: [p('value', 'ANY')],
  },
  {
    type: 'stateEvict',
    display_name: 'State Evict',
    category: 'state',
    icon: 'eraser',
    description: 'Drops a key from every keyed slot of a granted container when the key arrives.',
    default_config: { container: '' },
    input_ports: [
      p('key', 'TEXT', false, 'the key to drop (a string, or a number used as its decimal text)'),
      p(
        'trigger',
        'ANY',
        true,
        'optional gate: when it arrives with the key and is falsy, nothing is evicted',
      ),
    ],
    output_ports: [
      p('key', 'TEXT', true, 'the key, passed on (also when nothing was evicted)'),
      p('evicted', 'LIST[TEXT]', true, 'the slots that had a partition for the key'),
    ],
  },
  {
    type: 'emitSignal',
    display_name: 'Emit Signal',
    category: 'state',
    icon: 'radio',
    description: 'Broadcasts a signal to every container when triggered (clears slots subscribed to it).',
    default_config: { signal: 'my_signal', only_if_truthy: false },
    input_ports: [p('trigger', 'ANY')],
    output_ports: [p('trigger', 'ANY')],
  },
  {
    type: 'gridEnv',
    display_name: 'Grid Env',
    category: 'environment',
    icon: 'grid-3x3',
    description: 'A seeded grid-world navigation environment; emits episode_reset when an episode starts.',
    default_config: { seed: 7, width: 12, height: 12, max_episode_steps: 40, obstacle_ratio: 0.18 },
    input_ports: [
      p('action', 'ANY', true, 'action to apply (0 STOP, 1 FORWARD, 2 TURN_LEFT, 3 TURN_RIGHT, or the name)'),
      p('trigger', 'ANY', true, 'fires the env without an action (e.g. iterIn.step on the first iteration)'),
    ],
    output_ports: [
      p('observation', 'TEXT'),
      p('pose', 'POSE'),
      p('map', 'OCCUPANCY_MAP'),
      p('done', 'BOOL'),
      p('metrics', 'METRICS'),
      p('episode', 'ANY', true, 'the current episode number (1, 2, …), e.g. to key memory per episode'),
      p(
        'ended_episode',
        'ANY',
        true,
        'on the fire that starts a new episode: the number of the one that ended (else not emitted)',
      ),
    ],
  },
  {
    type: 'gridPolicy',
    display_name: 'Grid Policy',
    category: 'environment',
    icon: 'compass',
    description: 'A seeded heuristic that picks a grid action from the observation.',
    default_config: { seed: 11, epsilon: 0.1, visited_slot: '', count_slot: '' },
    input_ports: [p('observation', 'TEXT', false), p('pose', 'POSE'), p('map', 'OCCUPANCY_MAP')],
    output_ports: [p('action', 'DISCRETE_ACTION'), p('reason', 'TEXT')],
  },
  {
    type: 'phaseSwitch',
    display_name: 'Phase Switch',
    category: 'control',
    icon: 'git-branch',
    description: 'Proposes a routing feature value (e.g. phase) from a step schedule or its `value` input.',
    default_config: {
      feature: 'phase',
      schedule: [
        { value: 'explore', until_step: 5 },
        { value: 'exploit', until_step: 10 },
        { value: 'done' },
      ],
    },
    config_schema: {
      type: 'object',
      properties: {
        feature: { type: 'string', description: 'the declared feature to propose', default: 'phase' },
        schedule: {
          type: 'array',
          description:
            '[{value, until_step?}]: the first entry whose until_step is at least the root step (1, 2, …) is proposed; an entry without until_step holds for every later step',
        },
      },
      additionalProperties: true,
    },
    input_ports: [
      p('trigger', 'ANY', true, 'fires the switch; passed on unchanged on `trigger`'),
      p('value', 'ANY', true, 'when it arrives, this value is proposed instead of the schedule'),
    ],
    output_ports: [
      p('trigger', 'ANY', true, 'the trigger (or value) input, passed on'),
      p('phase', 'ANY', true, 'the proposed value'),
    ],
    docs: 'Calls `ctx.proposeFeature(config.feature, value)` once per fire, with the `value` input if it arrived, else the `config.schedule` entry for the current root step. The proposal only takes effect through an outgoing edge whose effect accepts it (`assign`, `allow` or `unconstrained`); exactly one compatible edge per routed port must exist, else the run stops without committing the step (docs/routing.md).',
  },
  ...(
    [
      'imageViewer',
      'textViewer',
      'textScroll',
      'actionLog',
      'metrics',
      'trajectoryViewer',
      'pointCloudViewer',
    ] as const
  ).map((type) => ({
    type,
    display_name: type.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase()),
    category: 'output',
    icon: 'monitor',
    ports_mode: 'sink',
    description: 'Viewer sink: shows what it receives (emits viewer_data).',
    input_ports: [p(viewerInput(type), viewerWire(type))],
  })),
];

function viewerInput(type: string): string {
  switch (type) {
    case 'imageViewer':
      return 'image';
    case 'metrics':
      return 'metrics';
    case 'trajectoryViewer':
      return 'pose';
    case 'pointCloudViewer':
      return 'points';
    case 'actionLog':
      return 'action';
    default:
      return 'text';
  }
}

function viewerWire(type: string): string {
  switch (type) {
    case 'imageViewer':
      return 'IMAGE';
    case 'metrics':
      return 'METRICS';
    case 'trajectoryViewer':
      return 'POSE';
    case 'actionLog':
      return 'ANY';
    case 'pointCloudViewer':
      return 'ANY';
    default:
      return 'TEXT';
  }
}

for (const spec of BUILTIN_NODE_SPECS) {
  const schema = SCHEMAS[spec.type];
  if (schema && !spec.config_schema) spec.config_schema = schema;
  const docs = BUILTIN_DOCS[spec.type];
  if (docs) spec.docs = docs;
}

export const BUILTIN_CATALOG = makeCatalog(BUILTIN_NODE_SPECS);

/** Canvas-only types that never execute. */
export const FRONTEND_ONLY_TYPES = ['stateContainer', 'compositeNode'] as const;
/** Removed node types the validator rejects with a migration hint. */
export const REMOVED_NODE_TYPES: Record<string, string> = {
  initialize: 'removed: author ports on iterIn initPorts and wire seeds to init_<name>',
  termination: 'removed: wire done/stop (BOOL) into the iterOut `stop` input',
  outputPort: 'removed: use graphOut',
};

import { describe, expect, it } from 'vitest';
import { makeCatalog } from '../catalog/catalog.schema.ts';
import { BUILTIN_NODE_SPECS } from '../catalog/catalog.builtins.ts';
import { parseGraphOrThrow, parseGraphText } from '../graph/graph.parse.ts';
import type { GraphDef } from '../graph/graph.schema.ts';
import { hasErrors, validate } from './graph.validate.ts';
import type { Issue } from './issues.ts';
import { fixture } from '../graph/fixtures/loadFixtures.testutil.ts';

type Raw = Record<string, unknown> & { nodes: Record<string, unknown>[]; edges: Record<string, unknown>[] };

/** A valid one-loop graph (the reference's minimal document, eval on) to break one rule at a time. */
function base(): Raw {
  const g = JSON.parse(fixture('reference-minimal')) as Raw;
  g.eval_graph = true;
  g.nodes.push({ id: 'out', type: 'graphOut', config: {} });
  g.edges.push({
    id: 'e4',
    source: 'loop_out',
    target: 'out',
    sourceHandle: 'final_note',
    targetHandle: 'value',
  });
  return g;
}
const node = (raw: Raw, id: string) =>
  raw.nodes.find((n) => n.id === id)! as { config: Record<string, unknown> } & Record<string, unknown>;
const check = (raw: unknown): Issue[] => validate(parseGraphOrThrow(raw));
const only = (issues: Issue[], code: string) => issues.filter((i) => i.code === code);

function expectIssue(raw: unknown, want: Partial<Issue>): Issue {
  const issues = check(raw);
  const found = issues.find((i) => Object.entries(want).every(([k, v]) => i[k as keyof Issue] === v));
  if (!found) throw new Error(`no issue like ${JSON.stringify(want)} in ${JSON.stringify(issues, null, 1)}`);
  return found;
}

describe('validate: clean graphs', () => {
  it('the base graph and the realistic loop fixture have no issues', () => {
    expect(check(base())).toEqual([]);
    const r = parseGraphText(fixture('loop-with-containers'));
    expect(r.ok && validate(r.graph)).toEqual([]);
  });

  it('hasErrors looks at severities only', () => {
    expect(hasErrors([{ code: 'x', severity: 'warning', path: '$', message: '' }])).toBe(false);
    expect(hasErrors([{ code: 'x', severity: 'error', path: '$', message: '' }])).toBe(true);
  });
});

describe('validate: ids and references', () => {
  it.each([
    ['nodes', 'node', 'nodeId'],
    ['edges', 'edge', 'edgeId'],
  ] as const)('duplicate %s ids are errors', (list, what, key) => {
    const g = base();
    const items = g[list];
    items.push({ ...items[0]!, id: items[1]!.id });
    const i = expectIssue(g, {
      code: `duplicate-${what}-id`,
      severity: 'error',
      path: `$.${list}[${items.length - 1}].id`,
    });
    expect(i[key]).toBe(items[1]!.id);
  });

  it('duplicate container and grant ids are errors', () => {
    const g = base();
    g.containers = [{ id: 'm' }, { id: 'm' }];
    g.access_grants = [
      { id: 'a', node_id: 'think', container_id: 'm' },
      { id: 'a', node_id: 'loop_out', container_id: 'm' },
    ];
    expectIssue(g, { code: 'duplicate-container-id', path: '$.containers[1].id', containerId: 'm' });
    expectIssue(g, { code: 'duplicate-grant-id', path: '$.access_grants[1].id', grantId: 'a' });
  });

  it('a dangling edge is an error that hints at grants when the end is a container', () => {
    const g = base();
    g.edges.push({
      id: 'bad',
      source: 'think',
      target: 'memory',
      sourceHandle: 'response',
      targetHandle: 'x',
    });
    const i = expectIssue(g, {
      code: 'dangling-edge',
      severity: 'error',
      path: '$.edges[4].target',
      edgeId: 'bad',
    });
    expect(i.message).toMatch(/use an access grant/);
  });

  it('dangling, duplicate and note grants are warnings', () => {
    const g = base();
    g.nodes.push({ id: 'n', type: 'note' });
    g.access_grants = [
      ...(g.access_grants as object[]),
      { id: 'x1', node_id: 'ghost', container_id: 'memory' },
      { id: 'x2', node_id: 'think', container_id: 'nowhere' },
      { id: 'x3', node_id: 'think', container_id: 'memory' },
      { id: 'x4', node_id: 'n', container_id: 'memory' },
    ];
    expectIssue(g, {
      code: 'dangling-grant',
      severity: 'warning',
      path: '$.access_grants[2].node_id',
      grantId: 'x1',
    });
    expectIssue(g, {
      code: 'dangling-grant',
      severity: 'warning',
      path: '$.access_grants[3].container_id',
      containerId: 'nowhere',
    });
    expectIssue(g, { code: 'duplicate-grant', severity: 'warning', path: '$.access_grants[4]' });
    expectIssue(g, { code: 'grant-on-note', severity: 'warning', nodeId: 'n' });
  });

  it('a container nobody is granted is a warning', () => {
    const g = base();
    (g.containers as object[]).push({ id: 'lonely', states: {} });
    expectIssue(g, {
      code: 'ungranted-container',
      severity: 'warning',
      path: '$.containers[1]',
      containerId: 'lonely',
    });
  });

  it('removed node types are errors with a hint; unknown types only warnings; canvas-only types warn', () => {
    const g = base();
    g.nodes.push(
      { id: 't', type: 'termination' },
      { id: 'p', type: 'nav__planner' },
      { id: 'cn', type: 'compositeNode' },
    );
    expect(expectIssue(g, { code: 'removed-node-type', severity: 'error', nodeId: 't' }).message).toMatch(
      /stop/,
    );
    // A `<nodeset>__<fn>` type names the node service that would serve it.
    expect(expectIssue(g, { code: 'unknown-node-type', severity: 'warning', nodeId: 'p' }).message).toMatch(
      /node service 'nav', which is not loaded .*--service nav=URL/,
    );
    expectIssue(g, { code: 'frontend-only-node', severity: 'warning', nodeId: 'cn' });
    g.nodes.push({ id: 'i', type: 'initialize' });
    expect(expectIssue(g, { code: 'removed-node-type', nodeId: 'i' }).message).toMatch(/initPorts/);
  });

  it('an eval graph without graphOut is an error; a DAG with eval_graph false is not', () => {
    const g = base();
    g.nodes = g.nodes.filter((n) => n.id !== 'out');
    g.edges = g.edges.filter((e) => e.id !== 'e4');
    expectIssue(g, { code: 'eval-without-graphout', severity: 'error', path: '$.eval_graph' });
    g.eval_graph = false;
    expect(only(check(g), 'eval-without-graphout')).toEqual([]);
  });

  it('a step budget below 1 is an error (it would still run a step); null is the default', () => {
    for (const b of [0, -5])
      expectIssue(
        { ...base(), step_budget: b },
        { code: 'invalid-step-budget', severity: 'error', path: '$.step_budget' },
      );
    expect(only(check({ ...base(), step_budget: null }), 'invalid-step-budget')).toEqual([]);
    expect(only(check({ ...base(), step_budget: 1 }), 'invalid-step-budget')).toEqual([]);
  });

  it('numeric node settings out of range are errors naming the config path', () => {
    const g = base();
    const at = g.nodes.length;
    g.nodes.push(
      { id: 'ask', type: 'llmCall', config: { n: 1e9, max_tokens: -1 } },
      { id: 'log', type: 'historyLog', config: { max_entries: 2.5 } },
    );
    expectIssue(g, {
      code: 'invalid-config-number',
      severity: 'error',
      path: `$.nodes[${at}].config.n`,
      nodeId: 'ask',
    });
    expectIssue(g, { code: 'invalid-config-number', path: `$.nodes[${at}].config.max_tokens` });
    expectIssue(g, { code: 'invalid-config-number', path: `$.nodes[${at + 1}].config.max_entries` });
    g.nodes[at]!.config = { n: 128, max_tokens: 16 };
    g.nodes[at + 1]!.config = { max_entries: 3 };
    const loop = g.nodes.find((n) => n.type === 'iterIn')!;
    loop.config = { ...(loop.config as object), step_budget: 0 };
    expectIssue(g, { code: 'invalid-step-budget', nodeId: loop.id as string });
    expect(only(check(g), 'invalid-config-number')).toEqual([]);
  });
});

describe('validate: containers and slots', () => {
  function withStates(states: Record<string, unknown>, extra: Record<string, unknown>[] = []): Raw {
    const g = base();
    g.containers = [{ id: 'memory', states }, ...extra];
    return g;
  }
  const slot = (name: string) => `$.containers[0].states.${name}`;

  it.each([
    [{ s: { value_type: 'IMAGE' } }, 'removed-value-type', 'error', 's', '.value_type'],
    [{ s: { value_type: 'VIDEO' } }, 'unknown-value-type', 'warning', 's', '.value_type'],
    [{ s: { type: 'ephemeral' } }, 'unknown-reducer', 'warning', 's', '.type'],
    [{ s: { type: 'merge' } }, 'extension-reducer', 'info', 's', '.type'],
    [{ s: { type: 'byKey' } }, 'bykey-fields-missing', 'error', 's', '.config'],
    [
      { s: { type: 'byKey', config: { fields: { a: 'byKey' } } } },
      'bykey-field-reducer',
      'error',
      's',
      '.config.fields.a',
    ],
    [
      { s: { type: 'lastWrite', config: { fields: { a: 'union' } } } },
      'fields-ignored',
      'warning',
      's',
      '.config.fields',
    ],
    [
      { s: { type: 'counter', config: { max_size: 3 } } },
      'max-size-ignored',
      'warning',
      's',
      '.config.max_size',
    ],
    [
      { s: { type: 'accumulator', config: { max_size: 0 } } },
      'invalid-max-size',
      'error',
      's',
      '.config.max_size',
    ],
    [
      { s: { type: 'counter', config: { initial_value: 'x' } } },
      'initial-value-mismatch',
      'warning',
      's',
      '.config.initial_value',
    ],
    [{ s: { lifetime: 'forever_and_ever' } }, 'unknown-lifetime', 'warning', 's', '.lifetime'],
    [{ s: { lifetime: 'custom' } }, 'custom-without-reset-on', 'warning', 's', '.reset_on'],
    [{ s: { lifetime: 'step', reset_on: ['sig'] } }, 'reset-on-ignored', 'warning', 's', '.reset_on'],
    [{ __step: {} }, 'reserved-state-name', 'error', '__step', ''],
  ])('%j → %s (%s)', (states, code, severity, name, suffix) => {
    const i = expectIssue(withStates(states), {
      code,
      severity: severity as Issue['severity'],
      path: slot(name) + suffix,
    });
    expect(i).toMatchObject({ containerId: 'memory', slot: name });
  });

  it('names the container and slot for a removed value type, like the reference build error', () => {
    const i = expectIssue(withStates({ frames: { value_type: 'DEPTH' } }), { code: 'removed-value-type' });
    expect(i.message).toMatch(/slot 'frames' of container 'memory'.*'DEPTH'.*no longer allowed/);
  });

  it('the unknown-reducer message says what the reference backend does', () => {
    expect(expectIssue(withStates({ s: { type: 'sum' } }), { code: 'unknown-reducer' }).message).toMatch(
      /treats it as lastWrite/,
    );
    expect(
      expectIssue(withStates({ s: { lifetime: 'daily' } }), { code: 'unknown-lifetime' }).message,
    ).toMatch(/treats it as forever/);
  });

  it('an empty slot name is an error; the same slot name in two containers only an info', () => {
    const g = withStates({ '': {}, shared: {} }, [{ id: 'other', states: { shared: {} } }]);
    g.access_grants = [
      { id: 'a', node_id: 'think', container_id: 'memory' },
      { id: 'b', node_id: 'think', container_id: 'other' },
    ];
    expectIssue(g, { code: 'invalid-state-name', severity: 'error', path: '$.containers[0].states[""]' });
    expectIssue(g, {
      code: 'duplicate-state-name',
      severity: 'info',
      path: '$.containers[1].states.shared',
      containerId: 'other',
      slot: 'shared',
    });
    // Containers are namespaces: a slot name shared across them never blocks a run.
    expect(check(g).filter((i) => i.code === 'duplicate-state-name' && i.severity !== 'info')).toEqual([]);
  });

  it('the extension-reducers fixture has only infos', () => {
    const r = parseGraphText(fixture('extension-reducers'));
    if (!r.ok) throw new Error('parse');
    const issues = validate(r.graph);
    expect(issues.map((i) => `${i.severity}:${i.code}`)).toEqual([
      'info:extension-reducer',
      'info:extension-reducer',
      'info:extension-reducer',
    ]);
  });
});

describe('validate: loops', () => {
  it('legacy init_ports/loop_ports on an iterIn are errors', () => {
    const g = base();
    node(g, 'loop_in').config.init_ports = [];
    node(g, 'loop_in').config.loop_ports = [];
    expectIssue(g, { code: 'iterin-legacy-ports', severity: 'error', path: '$.nodes[1].config.init_ports' });
    expectIssue(g, { code: 'iterin-legacy-ports', path: '$.nodes[1].config.loop_ports' });
  });

  it('pairedWith pointing at a missing node or the wrong type is an error on either side', () => {
    const g = base();
    node(g, 'loop_in').config.pairedWith = 'think';
    node(g, 'loop_out').config.pairedWith = 'seed';
    expect(
      expectIssue(g, { code: 'iterin-pairing-invalid', severity: 'error', nodeId: 'loop_in' }).message,
    ).toMatch(/does not point to an iterOut node/);
    expect(
      expectIssue(g, { code: 'iterout-pairing-invalid', severity: 'error', nodeId: 'loop_out' }).message,
    ).toMatch(/does not point to an iterIn node/);
    expectIssue(g, { code: 'iterin-unpaired', severity: 'error', nodeId: 'loop_in' });
  });

  it('an iterOut without pairedWith and an iterIn nobody pairs with are errors', () => {
    const g = base();
    delete node(g, 'loop_out').config.pairedWith;
    expectIssue(g, { code: 'iterout-unpaired', severity: 'error', path: '$.nodes[3].config.pairedWith' });
    expectIssue(g, { code: 'iterin-unpaired', severity: 'error', path: '$.nodes[1]' });
  });

  it('two iterOuts pairing one iterIn is an error; a one-sided pairing a warning', () => {
    const g = base();
    g.nodes.push({
      id: 'loop_out2',
      type: 'iterOut',
      config: { pairedWith: 'loop_in', ports: [{ name: 'v' }] },
    });
    expectIssue(g, {
      code: 'duplicate-pairing',
      severity: 'error',
      nodeId: 'loop_out2',
      path: '$.nodes[5].config.pairedWith',
    });
    g.nodes.push({ id: 'in2', type: 'iterIn', config: { pairedWith: 'loop_out' } });
    expectIssue(g, { code: 'pairing-mismatch', severity: 'warning', nodeId: 'in2' });
  });

  it('an iterOut without ports is an error; nameless port entries a warning', () => {
    const g = base();
    node(g, 'loop_out').config.ports = [];
    expectIssue(g, { code: 'iterout-without-ports', severity: 'error', path: '$.nodes[3].config.ports' });
    node(g, 'loop_out').config.ports = [{ name: 'note', wire_type: 'TEXT' }, { wire_type: 'TEXT' }];
    expectIssue(g, { code: 'invalid-loop-port', severity: 'warning' });
  });
});

describe('validate: edges, handles and wire types', () => {
  it('edges from iterOut are final-side only; final_<x> and final_stop pass', () => {
    const g = base();
    g.edges.push({ id: 'x', source: 'loop_out', target: 'out', sourceHandle: 'note', targetHandle: 'value' });
    g.edges.push({
      id: 'y',
      source: 'loop_out',
      target: 'out',
      sourceHandle: 'final_stop',
      targetHandle: 'value',
    });
    const issues = check(g);
    expect(issues.map((i) => i.code)).toEqual(['iterout-final-side-only']);
    expect(issues[0]).toMatchObject({ severity: 'error', path: '$.edges[4].sourceHandle', edgeId: 'x' });
    expect(issues[0]!.message).toMatch(/final-side only/);
  });

  it('an unknown handle into an iterOut or out of an iterIn is an error; on other known types a warning', () => {
    const g = base();
    g.edges.push({
      id: 'a',
      source: 'think',
      target: 'loop_out',
      sourceHandle: 'response',
      targetHandle: 'nope',
    });
    g.edges.push({
      id: 'b',
      source: 'loop_in',
      target: 'think',
      sourceHandle: 'init_nope',
      targetHandle: 'plan',
    });
    g.edges.push({ id: 'c', source: 'think', target: 'out', sourceHandle: 'bogus', targetHandle: 'value' });
    g.edges.push({
      id: 'd',
      source: 'seed',
      target: 'think',
      sourceHandle: 'value',
      targetHandle: 'nonsense',
    });
    expectIssue(g, {
      code: 'unknown-handle',
      severity: 'error',
      edgeId: 'a',
      path: '$.edges[4].targetHandle',
    });
    expect(expectIssue(g, { code: 'unknown-handle', severity: 'error', edgeId: 'b' }).message).toMatch(
      /valid: 'step', 'iteration', 'init_goal', 'iterout_note'/,
    );
    expectIssue(g, {
      code: 'unknown-handle',
      severity: 'warning',
      edgeId: 'c',
      path: '$.edges[6].sourceHandle',
    });
    expectIssue(g, {
      code: 'unknown-handle',
      severity: 'warning',
      edgeId: 'd',
      path: '$.edges[7].targetHandle',
    });
  });

  it('generated loop ports and the step handle are not unknown handles; any handle may enter an iterIn', () => {
    const g = base();
    g.edges.push({
      id: 's',
      source: 'loop_in',
      target: 'think',
      sourceHandle: 'step',
      targetHandle: 'context',
    });
    g.edges.push({
      id: 'n',
      source: 'loop_in',
      target: 'think',
      sourceHandle: 'iterout_note',
      targetHandle: 'history',
    });
    g.edges.push({
      id: 'free',
      source: 'seed',
      target: 'loop_in',
      sourceHandle: 'value',
      targetHandle: 'anything',
    });
    expect(check(g)).toEqual([]);
  });

  it('reports a lossy LIST[T] → T edge in the reference wording', () => {
    const g = base();
    g.nodes.push({ id: 'p', type: 'textParse' });
    g.edges.push({ id: 'e9', source: 'think', target: 'p', sourceHandle: 'responses', targetHandle: 'text' });
    const i = expectIssue(g, {
      code: 'wire-type-mismatch',
      severity: 'error',
      edgeId: 'e9',
      path: '$.edges[4]',
    });
    expect(i.message).toBe(
      "Edge 'e9' type mismatch: LIST[TEXT] → TEXT loses items: think.responses → p.text",
    );
  });

  it('reports a plain mismatch, and accepts T → LIST[T], ANY and ACTION ≡ DISCRETE_ACTION', () => {
    const g = base();
    g.nodes.push(
      { id: 'env', type: 'gridEnv' },
      { id: 'pol', type: 'gridPolicy' },
      { id: 'tp', type: 'textParse' },
      { id: 'al', type: 'actionLog' },
    );
    g.edges.push({
      id: 'bad',
      source: 'env',
      target: 'pol',
      sourceHandle: 'done',
      targetHandle: 'observation',
    });
    g.edges.push({
      id: 'wrap',
      source: 'think',
      target: 'think',
      sourceHandle: 'response',
      targetHandle: 'image_labels',
    });
    g.edges.push({ id: 'act', source: 'tp', target: 'env', sourceHandle: 'index', targetHandle: 'action' });
    g.edges.push({
      id: 'ok2',
      source: 'think',
      target: 'tp',
      sourceHandle: 'response',
      targetHandle: 'text',
    });
    const issues = only(check(g), 'wire-type-mismatch');
    expect(issues.map((i) => i.edgeId)).toEqual(['bad']);
    expect(issues[0]!.message).toBe("Edge 'bad' type mismatch: BOOL → TEXT: env.done → pol.observation");
  });

  it('required inputs of known types need an edge; plugin types are skipped', () => {
    const g = base();
    g.nodes.push({ id: 'tp', type: 'textParse' }, { id: 'plug', type: 'x__y' });
    node(g, 'loop_out').config.ports = [
      { name: 'note', wire_type: 'TEXT', required: true },
      { name: 'must', required: true },
    ];
    const i = expectIssue(g, {
      code: 'required-input-unwired',
      severity: 'error',
      nodeId: 'tp',
      path: '$.nodes[5]',
    });
    expect(i.message).toBe(
      "Node 'tp' (type=textParse) has required input port(s) ['text'] with no incoming edge.",
    );
    expect(expectIssue(g, { code: 'required-input-unwired', nodeId: 'loop_out' }).message).toMatch(
      /\['must'\]/,
    );
    expect(only(check(g), 'required-input-unwired').map((x) => x.nodeId)).toEqual(['loop_out', 'tp']);
  });

  it('an edge without targetHandle counts for the port named like its source handle', () => {
    const g = base();
    g.nodes.push({ id: 'tp', type: 'textParse' }, { id: 'src', type: 'constant' });
    g.edges.push({ id: 'x', source: 'think', target: 'tp', sourceHandle: 'text' });
    expect(only(check(g), 'required-input-unwired')).toEqual([]);
  });

  it('uses the catalog it is given', () => {
    const g = base();
    g.nodes.push({ id: 'z', type: 'zeta' });
    const catalog = makeCatalog([
      ...BUILTIN_NODE_SPECS,
      { type: 'zeta', display_name: 'Z', input_ports: [{ name: 'in', optional: false }] },
    ]);
    const issues = validate(parseGraphOrThrow(g) as GraphDef, catalog);
    expect(issues.map((i) => i.code)).toEqual(['required-input-unwired']);
  });

  it('an unwired required input of a node-service type is a warning (the reference runs such graphs)', () => {
    const g = base();
    g.nodes.push({ id: 'temp', type: 'example__temp_text' });
    const catalog = makeCatalog([
      ...BUILTIN_NODE_SPECS,
      {
        type: 'example__temp_text',
        display_name: 'Temperature Text',
        kind: 'service',
        input_ports: [{ name: 'value', wire_type: 'TEXT', optional: false }],
      },
    ]);
    const issues = validate(parseGraphOrThrow(g) as GraphDef, catalog);
    expect(issues.map((i) => [i.code, i.severity, i.nodeId])).toEqual([
      ['required-input-unwired', 'warning', 'temp'],
    ]);
    expect(issues[0]!.message).toMatch(
      /\['value'\] with no incoming edge\. A node-service type, so a warning/,
    );
  });
});

describe('validate: composites', () => {
  it('recurses into subgraphs with nested paths and checks composite ports', () => {
    const g = base();
    g.nodes.push({
      id: 'comp',
      type: 'compositeNode',
      subgraph: {
        eval_graph: false,
        nodes: [
          { id: 'gi', type: 'graphIn', config: { portName: 'q' } },
          { id: 'dup' },
          { id: 'dup' },
          { id: 'tp', type: 'textParse' },
        ],
        edges: [{ id: 'se', source: 'gi', target: 'ghost' }],
      },
    });
    g.edges.push({
      id: 'into',
      source: 'think',
      target: 'comp',
      sourceHandle: 'response',
      targetHandle: 'q',
    });
    g.edges.push({
      id: 'bad',
      source: 'think',
      target: 'comp',
      sourceHandle: 'response',
      targetHandle: 'zzz',
    });
    const issues = check(g);
    expectIssue(g, { code: 'duplicate-node-id', path: '$.nodes[5].subgraph.nodes[2].id' });
    expectIssue(g, { code: 'dangling-edge', path: '$.nodes[5].subgraph.edges[0].target', edgeId: 'se' });
    expectIssue(g, { code: 'required-input-unwired', path: '$.nodes[5].subgraph.nodes[3]' });
    expect(only(issues, 'unknown-handle').map((i) => i.edgeId)).toEqual(['bad']);
    expect(only(issues, 'eval-without-graphout')).toEqual([]);
  });

  it("an inner grant to an enclosing graph's container is valid (the engine resolves it there); one no level declares dangles", () => {
    // Two levels deep: outer graph declares `box`, the middle composite declares `mid_box`; the
    // innermost node writes both. Exactly what src/engine/flatten.ts runs (engine test: flatten.test.ts).
    const inner = {
      eval_graph: false,
      nodes: [
        { id: 'gi', type: 'graphIn', config: { portName: 'input' } },
        { id: 'w', type: 'stateWrite', config: { container: 'box', state: 'log' } },
      ],
      edges: [{ id: 'ie', source: 'gi', target: 'w', sourceHandle: 'value', targetHandle: 'value' }],
      access_grants: [
        { id: 'to_box', node_id: 'w', container_id: 'box' },
        { id: 'to_mid', node_id: 'w', container_id: 'mid_box' },
        { id: 'to_none', node_id: 'w', container_id: 'nowhere' },
      ],
    };
    const middle = {
      eval_graph: false,
      nodes: [
        { id: 'gi', type: 'graphIn', config: { portName: 'input' } },
        { id: 'deep', type: 'compositeNode', subgraph: inner },
      ],
      edges: [{ id: 'me', source: 'gi', target: 'deep', sourceHandle: 'value', targetHandle: 'input' }],
      containers: [{ id: 'mid_box', states: { log: { type: 'accumulator' } } }],
    };
    const g = base();
    (g.containers as object[]).push({ id: 'box', states: { log: { type: 'accumulator' } } });
    g.nodes.push({ id: 'comp', type: 'compositeNode', subgraph: middle });
    g.edges.push({
      id: 'into',
      source: 'think',
      target: 'comp',
      sourceHandle: 'response',
      targetHandle: 'input',
    });
    const issues = check(g);
    const grantIssues = only(issues, 'dangling-grant');
    expect(grantIssues.map((i) => i.grantId)).toEqual(['to_none']);
    expect(grantIssues[0]!.message).toMatch(/neither this subgraph nor an enclosing graph declares/);
    // Granted from inside the composites: neither container reads as "nobody can touch it".
    expect(only(issues, 'ungranted-container')).toEqual([]);
  });

  it('archived composite fixture is clean', () => {
    const r = parseGraphText(fixture('archived-composite'));
    expect(r.ok && validate(r.graph)).toEqual([]);
  });
});

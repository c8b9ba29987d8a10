import { describe, expect, it } from 'vitest';
import { makeCatalog } from '../../domain/catalog/catalog.schema.ts';
import { BUILTIN_NODE_SPECS } from '../../domain/catalog/catalog.builtins.ts';
import { emptyGraph, type GraphDef, type NodeDef } from '../../domain/graph/graph.schema.ts';
import {
  serviceFunctionSpec,
  type ServicesReport,
  type ServiceStatus,
} from '../../domain/services/manifest.ts';
import { createEditorStore } from '../store/editor.store.ts';
import { issuesOf } from '../store/derived.ts';
import { serviceIssues, serviceOfType, serviceProblem, serviceProblemOf } from './serviceIssues.ts';

const fn = (name: string) => ({
  name,
  description: '',
  input_ports: [],
  output_ports: [],
  config_schema: {},
  ui_config: {},
});

function status(name: string, patch: Partial<ServiceStatus> = {}): ServiceStatus {
  return {
    name,
    url: 'http://127.0.0.1:9200',
    managed: false,
    encoding: 'msgpack',
    state: 'up',
    error: null,
    version: '1.0',
    description: '',
    types: [],
    containers: [],
    restarts: 0,
    pid: null,
    issues: [],
    ...patch,
  };
}

const report = (...services: ServiceStatus[]): ServicesReport => ({
  services,
  config_errors: [],
  executor_url: null,
});
const builtins = makeCatalog(BUILTIN_NODE_SPECS);
const withStep = makeCatalog([
  ...BUILTIN_NODE_SPECS,
  serviceFunctionSpec('gridworld', fn('gridworld__env_step')),
]);
const node = (id: string, type: string): NodeDef => ({
  id,
  type,
  label: id,
  position: { x: 0, y: 0 },
  config: {},
});

describe('serviceOfType', () => {
  it('reads the catalog category, then the report, then the nodeset of an unknown type', () => {
    expect(serviceOfType('gridworld__env_step', withStep, report())).toBe('gridworld');
    // A service may serve names without its own prefix (listed in its types).
    expect(serviceOfType('add', builtins, report(status('toy', { types: ['add'] })))).toBe('toy');
    expect(serviceOfType('habitat__env_step', builtins, report())).toBe('habitat');
    expect(serviceOfType('gridEnv', builtins, report())).toBeNull();
    expect(serviceOfType('plainUnknown', builtins, report())).toBeNull();
  });
});

describe('serviceProblem', () => {
  it('says nothing before the report arrives, for built-ins, and for an up service that serves the type', () => {
    expect(serviceProblem('gridworld__env_step', builtins, null)).toBeNull();
    expect(serviceProblem('gridEnv', builtins, report())).toBeNull();
    const up = report(status('gridworld', { types: ['gridworld__env_step'] }));
    expect(serviceProblem('gridworld__env_step', withStep, up)).toBeNull();
  });

  it('names a service that is not configured, and where to add it', () => {
    expect(serviceProblem('gridworld__env_step', builtins, report())).toEqual({
      service: 'gridworld',
      kind: 'missing',
      severity: 'warning',
      message:
        "type `gridworld__env_step` is served by service 'gridworld', but no service named 'gridworld' is configured (add it to workspace/services.json)",
    });
    const withErrors = {
      services: [],
      config_errors: [{ path: '$.services[0].url', message: 'Invalid URL' }],
      executor_url: null,
    };
    expect(serviceProblem('gridworld__env_step', builtins, withErrors)?.message).toMatch(
      /services\.json has 1 error, listed under Services in the node library$/,
    );
  });

  it('names a down service with its last error (types stay in the catalog while it is down)', () => {
    const down = report(status('gridworld', { state: 'down', error: 'process exited with code 1' }));
    for (const catalog of [builtins, withStep])
      expect(serviceProblem('gridworld__env_step', catalog, down)).toMatchObject({
        kind: 'down',
        severity: 'error',
        message:
          "type `gridworld__env_step` is served by service 'gridworld', which is down: process exited with code 1",
      });
  });

  it('a starting service is a warning; an up service without the function is an error listing what it serves', () => {
    expect(
      serviceProblem('gridworld__env_step', builtins, report(status('gridworld', { state: 'starting' }))),
    ).toMatchObject({ kind: 'starting', severity: 'warning' });
    expect(
      serviceProblem(
        'gridworld__jump',
        builtins,
        report(status('gridworld', { types: ['gridworld__env_step'] })),
      )?.message,
    ).toBe(
      "type `gridworld__jump` is served by service 'gridworld', which is up but does not offer it (it serves: gridworld__env_step)",
    );
  });

  it('serviceProblemOf returns the same object for the same catalog, report and type', () => {
    const r = report();
    expect(serviceProblemOf('a__b', builtins, r)).toBe(serviceProblemOf('a__b', builtins, r));
    expect(serviceProblemOf('a__b', builtins, report())).not.toBe(serviceProblemOf('a__b', builtins, r));
  });
});

describe('service issues in the Issues panel', () => {
  function graph(): GraphDef {
    const g = emptyGraph('g');
    const inner = emptyGraph('inner');
    inner.nodes = [node('deep', 'sim__step')];
    g.nodes = [
      node('env', 'gridworld__env_step'),
      node('grid', 'gridEnv'),
      { ...node('comp', 'compositeNode'), subgraph: inner },
    ];
    return g;
  }

  it('one issue per node, with the validator’s JSON paths, also inside composites', () => {
    const r = report(status('gridworld', { state: 'down', error: 'boom' }));
    expect(serviceIssues(graph(), builtins, r).map((i) => [i.code, i.path, i.nodeId])).toEqual([
      ['service-down', '$.nodes[0].type', 'env'],
      ['service-missing', '$.nodes[2].subgraph.nodes[0].type', 'deep'],
    ]);
    expect(serviceIssues(graph(), builtins, null)).toEqual([]);
  });

  it('replace the generic "type not loaded" warning of the same node, and follow the report', () => {
    const store = createEditorStore();
    store.getState().openTab({ graph: graph() });
    const codes = () => issuesOf(store.getState()).all.map((i) => `${i.code}@${i.path}`);
    expect(codes()).toContain('unknown-node-type@$.nodes[0].type');
    store.getState().setServices(report(status('gridworld', { state: 'down', error: 'boom' })));
    expect(codes()).toContain('service-down@$.nodes[0].type');
    expect(codes()).not.toContain('unknown-node-type@$.nodes[0].type');
    expect(issuesOf(store.getState()).byElement.get('env')).toBe('error');
    store.getState().setServices(report(status('gridworld', { state: 'starting' })));
    expect(codes()).toContain('service-starting@$.nodes[0].type');
  });
});

// The services report in the editor follows the newest word: a GET answer that was in flight while
// a services_changed notice arrived must not overwrite it (the notice said "up", the answer was
// computed before, still "starting").
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServiceStatus } from '../../domain/services/manifest.ts';
import { createEditorStore } from '../store/editor.store.ts';
import { loadCatalog, loadServices, startServicesSync } from './servicesSync.ts';

const report = (state: ServiceStatus['state']) => ({
  services: [
    {
      name: 'sim',
      url: 'http://127.0.0.1:9200',
      managed: true,
      encoding: 'msgpack',
      state,
      error: null,
      version: '1',
      description: '',
      types: [],
      containers: [],
      restarts: 0,
      pid: null,
    },
  ],
  config_errors: [],
});

afterEach(() => vi.unstubAllGlobals());

function setup() {
  const store = createEditorStore();
  const handlers = new Map<string, (d: unknown) => void>();
  startServicesSync(store, { onNotice: (type, fn) => void handlers.set(type, fn) });
  let answer: (r: unknown) => void = () => undefined;
  vi.stubGlobal(
    'fetch',
    () =>
      new Promise((resolve) => {
        answer = (body) => resolve(new Response(JSON.stringify(body), { status: 200 }));
      }),
  );
  return {
    store,
    notice: (d: unknown) => handlers.get('services_changed')!(d),
    answer: (b: unknown) => answer(b),
  };
}

describe('services report ordering', () => {
  it('a notice that arrives while a GET is in flight wins over the GET’s older answer', async () => {
    const s = setup();
    const loading = loadServices(s.store);
    s.notice(report('up'));
    s.answer(report('starting'));
    await loading;
    expect(s.store.getState().services?.services[0]?.state).toBe('up');
  });

  it('without a notice meanwhile, the GET answer is applied', async () => {
    const s = setup();
    const loading = loadServices(s.store);
    s.answer(report('down'));
    await loading;
    expect(s.store.getState().services?.services[0]?.state).toBe('down');
  });
});

describe('reconnect', () => {
  it('a connect fetches the services report and the node catalog again (notices may have been missed)', async () => {
    const store = createEditorStore();
    const handlers = new Map<string, (d: unknown) => void>();
    startServicesSync(store, { onNotice: (type, fn) => void handlers.set(type, fn) });
    const asked: string[] = [];
    vi.stubGlobal('fetch', (url: string) => {
      asked.push(new URL(url, 'http://x').pathname);
      return Promise.resolve(new Response('{}', { status: 200 }));
    });
    handlers.get('connect')!(undefined);
    await vi.waitFor(() => expect(asked.sort()).toEqual(['/api/components/node-schemas', '/api/services']));
  });

  it('the same answer again (a reconnect) leaves the catalog and the report as they are', async () => {
    const store = createEditorStore();
    const spec = { type: 'echo', display_name: 'Echo' };
    vi.stubGlobal('fetch', (url: string) =>
      Promise.resolve(
        new Response(JSON.stringify(url.includes('node-schemas') ? [spec] : report('up')), { status: 200 }),
      ),
    );
    await loadCatalog(store);
    await loadServices(store);
    const { catalog, services } = store.getState();
    expect(catalog.has('echo')).toBe(true);
    expect(services?.services[0]?.state).toBe('up');
    await loadCatalog(store);
    await loadServices(store);
    expect(store.getState().catalog).toBe(catalog);
    expect(store.getState().services).toBe(services);
    // A different answer is applied.
    vi.stubGlobal('fetch', () =>
      Promise.resolve(new Response(JSON.stringify(report('down')), { status: 200 })),
    );
    await loadServices(store);
    expect(store.getState().services?.services[0]?.state).toBe('down');
  });
});

// Keeps the editor's server-provided registries current: the node catalog (GET
// /api/components/node-schemas, again on `components_changed` when service types come or go) and
// the node-services report (GET /api/services at boot and after every reconnect, `services_changed`
// notices when a service starts, dies or is reloaded). "Reload services" POSTs the reload and applies
// its answer at once; the notices that follow carry the same report, so applying twice is harmless.
// `services_waiting` (a run waits for a service still starting) becomes a toast.
import { parseCatalog } from '../../domain/catalog/catalog.schema.ts';
import { ServicesReportSchema, type ServicesReport } from '../../domain/services/manifest.ts';
import { api, ApiError } from '../api/client.ts';
import type { EditorStore } from '../store/editor.store.ts';

/**
 * What each store was last given, as JSON beside the object it got: a refetch with the same answer
 * (every socket connect refetches both, right after a big graph's first render) leaves the store as
 * it is, instead of a new catalog or report that makes every canvas node resolve its view again and
 * the whole graph validate again. Applied only while the store still holds that object.
 */
const lastApplied = new WeakMap<EditorStore, { catalog?: [string, unknown]; services?: [string, unknown] }>();

function isRepeat(store: EditorStore, kind: 'catalog' | 'services', text: string): boolean {
  const last = lastApplied.get(store)?.[kind];
  return last !== undefined && last[0] === text && last[1] === store.getState()[kind];
}

function remember(store: EditorStore, kind: 'catalog' | 'services', text: string): void {
  const entry = lastApplied.get(store) ?? {};
  entry[kind] = [text, store.getState()[kind]];
  lastApplied.set(store, entry);
}

/** `prefetched`: the answer of a request already sent (the boot's, src/app/bootRequests.ts). */
export async function loadCatalog(store: EditorStore, prefetched?: Promise<unknown>): Promise<void> {
  try {
    const raw = await (prefetched ?? api.nodeSchemas());
    const list = Array.isArray(raw)
      ? raw
      : Array.isArray((raw as { schemas?: unknown })?.schemas)
        ? (raw as { schemas: unknown[] }).schemas
        : [];
    // The answer's text decides first: the same answer again (every socket connect) is not parsed
    // again. A new one is parsed once, each entry on its own (a bad entry is left out).
    const text = JSON.stringify(list);
    if (isRepeat(store, 'catalog', text)) return;
    const { catalog } = parseCatalog(list);
    if (catalog.size) {
      store.getState().setCatalog(catalog);
      remember(store, 'catalog', text);
    }
  } catch (e) {
    store
      .getState()
      .addLog('warn', `node catalog not loaded from server, using built-ins: ${(e as Error).message}`);
  }
}

/** Parses a report (REST answer or notice) and stores it; a bad one becomes a log line naming where. */
export function applyServicesReport(raw: unknown, store: EditorStore, origin: string): ServicesReport | null {
  const r = ServicesReportSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const path = issue?.path.length ? `$.${issue.path.join('.')}` : '$';
    store
      .getState()
      .addLog(
        'warn',
        `ignored a bad services report from ${origin} at ${path}: ${issue?.message ?? 'invalid'}`,
      );
    return null;
  }
  const text = JSON.stringify(r.data);
  if (isRepeat(store, 'services', text)) return store.getState().services;
  store.getState().setServices(r.data);
  remember(store, 'services', text);
  return r.data;
}

/**
 * Counts `services_changed` notices: a GET answer is dropped when a notice came while it was in
 * flight (the notice is newer — e.g. "up" — and the answer may still say "starting").
 */
let noticesSeen = 0;

export async function loadServices(store: EditorStore, prefetched?: Promise<unknown>): Promise<void> {
  const before = noticesSeen;
  try {
    const report = await (prefetched ?? api.services());
    if (noticesSeen !== before) return;
    applyServicesReport(report, store, 'GET /api/services');
  } catch (e) {
    // A server without the services API (an older one) simply has no services.
    if (e instanceof ApiError && e.status === 404)
      store.getState().setServices({ services: [], config_errors: [], executor_url: null });
    else store.getState().addLog('warn', `node services not loaded: ${(e as Error).message}`);
  }
}

/** One line for a toast: how many services are up, starting or down after a reload. */
export function reloadSummary(report: ServicesReport): string {
  if (report.services.length === 0)
    return report.config_errors.length
      ? `No node services loaded: ${report.config_errors.length} configuration error(s)`
      : 'No node services configured (workspace/services.json)';
  const count = (state: string) => report.services.filter((s) => s.state === state).length;
  const parts = [`${count('up')} up`];
  if (count('starting')) parts.push(`${count('starting')} starting`);
  if (count('down')) parts.push(`${count('down')} down`);
  if (report.config_errors.length) parts.push(`${report.config_errors.length} config error(s)`);
  return `Node services reloaded: ${parts.join(', ')}`;
}

/**
 * POST /api/services/reload (re-reads services.json, restarts changed services, refetches every
 * manifest), then the catalog. Resolves with the report, or null after showing the failure.
 */
export async function reloadServices(store: EditorStore): Promise<ServicesReport | null> {
  try {
    const report = applyServicesReport(await api.reloadServices(), store, 'POST /api/services/reload');
    await loadCatalog(store);
    if (report) {
      const down = report.services.some((s) => s.state === 'down') || report.config_errors.length > 0;
      store.getState().showToast(reloadSummary(report), down ? 'error' : 'info');
    }
    return report;
  } catch (e) {
    store.getState().showToast(`Reload services failed: ${(e as Error).message}`, 'error');
    return null;
  }
}

/** What the sync needs of the live connection (LiveClient.onNotice), injected for tests. */
export interface NoticeSource {
  onNotice(type: string, fn: (data: unknown) => void): void;
}

/** Subscribes to the server notices that change the catalog or the services report. */
export function startServicesSync(store: EditorStore, notices: NoticeSource): void {
  notices.onNotice('services_changed', (data) => {
    noticesSeen++;
    applyServicesReport(data, store, 'the services_changed notice');
  });
  notices.onNotice('components_changed', () => {
    void loadCatalog(store);
  });
  // A run was started while a node service it needs is still starting: the server waits for it.
  notices.onNotice('services_waiting', (data) => {
    const d = data as { graph_name?: unknown; services?: unknown };
    const names = Array.isArray(d?.services) ? d.services.filter((n) => typeof n === 'string') : [];
    if (names.length === 0) return;
    const graph = typeof d.graph_name === 'string' && d.graph_name ? ` '${d.graph_name}'` : '';
    const msg = `Run${graph} waits for node service ${names.map((n) => `'${n}'`).join(', ')} (starting)…`;
    store.getState().showToast(msg, 'info');
    store.getState().addLog('info', msg);
  });
  // Anything may have changed while the socket was down (the server restarted, a service died),
  // including before its first connect: a service that came up between the boot's catalog request
  // and the socket's connect sent services_changed and components_changed to no one, so both the
  // report and the catalog (its node types) are fetched again.
  notices.onNotice('connect', () => {
    void loadServices(store);
    void loadCatalog(store);
  });
}

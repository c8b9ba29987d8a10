// The library's "Services" section: one group per node service ("Services › <name>") with a health
// dot (green up, amber starting, red down; hover for version and last error, click for details: the
// manifest parts left out, and for a service started by hand the executor URL it needs), its node
// types, the services.json configuration errors with their JSON paths, and a Reload button.
import { useState } from 'react';
import { RefreshCw, Server } from 'lucide-react';
import type { ServiceStatus } from '../../../domain/services/manifest.ts';
import { serviceOfCategory } from '../../../domain/services/manifest.ts';
import { editorStore, useEditor } from '../../store/editor.store.ts';
import { reloadServices } from '../../services/servicesSync.ts';
import { LibraryItem, type LibraryEntry } from './LibraryItem.tsx';

const DOT: Record<ServiceStatus['state'] | 'unknown', string> = {
  up: 'bg-emerald-500',
  starting: 'bg-amber-400',
  down: 'bg-red-500',
  unknown: 'bg-zinc-600',
};

export function dotTitle(s: ServiceStatus | undefined, name: string): string {
  if (!s) return `${name}: not reported by the server`;
  const version = s.version ? ` · v${s.version}` : '';
  return `${name}: ${s.state}${version}${s.error ? `\nlast error: ${s.error}` : ''}`;
}

export function ReloadServicesButton() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      data-testid="reload-services"
      title="Reload services: re-read workspace/services.json, restart changed services, refetch manifests"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void reloadServices(editorStore).finally(() => setBusy(false));
      }}
      className="ml-auto rounded p-0.5 text-zinc-500 hover:bg-zinc-800 hover:text-zinc-200 disabled:opacity-60"
    >
      <RefreshCw size={11} className={busy ? 'animate-spin' : ''} />
    </button>
  );
}

function ServiceGroup({
  name,
  status,
  entries,
  executorUrl,
}: {
  name: string;
  status: ServiceStatus | undefined;
  entries: LibraryEntry[];
  /** Where services call back; one started by hand needs it as AGENTCANVAS_EXECUTOR_URL. */
  executorUrl: string | null;
}) {
  const [open, setOpen] = useState(false);
  const state = status?.state ?? 'unknown';
  return (
    <div className="mb-1" data-testid={`service-section-${name}`} data-state={state}>
      <button
        type="button"
        onClick={() => setOpen(!open)}
        title={dotTitle(status, name)}
        aria-expanded={open}
        className="flex w-full items-center gap-1.5 rounded px-1 pt-1 text-left text-[10px] tracking-wide text-zinc-500 uppercase hover:text-zinc-300"
      >
        <span
          data-testid={`service-dot-${name}`}
          data-state={state}
          className={`h-2 w-2 shrink-0 rounded-full ${DOT[state]}`}
        />
        <span className="truncate">Services › {name}</span>
        {status?.version && <span className="ml-auto normal-case text-zinc-600">v{status.version}</span>}
      </button>
      {status?.state === 'down' && status.error && !open && (
        <div
          data-testid={`service-error-${name}`}
          className="truncate px-1 pl-4.5 text-[10px] text-red-400"
          title={status.error}
        >
          {status.error}
        </div>
      )}
      {open && (
        <div
          data-testid={`service-details-${name}`}
          className="mx-1 my-0.5 rounded border border-zinc-800 bg-zinc-950/60 px-1.5 py-1 text-[10px] leading-snug text-zinc-400"
        >
          {!status ? (
            <div>The server does not report this service (reload services).</div>
          ) : (
            <>
              <div>
                <span className="text-zinc-500">state</span> {status.state}
                {status.restarts ? ` · restarted ${status.restarts}×` : ''}
              </div>
              {status.version && (
                <div>
                  <span className="text-zinc-500">version</span> {status.version}
                </div>
              )}
              <div className="truncate" title={status.url ?? undefined}>
                <span className="text-zinc-500">{status.managed ? 'managed' : 'url'}</span>{' '}
                {status.url ?? '(no port yet)'} · {status.encoding}
              </div>
              {!status.managed && executorUrl && (
                <div
                  data-testid={`service-executor-${name}`}
                  className="truncate"
                  title="A service you start yourself reaches this server (grants, events) through this variable"
                >
                  <span className="text-zinc-500">start it with</span> AGENTCANVAS_EXECUTOR_URL={executorUrl}
                </div>
              )}
              {status.issues.map((i) => (
                <div key={i.path} className="break-words text-amber-400" title={i.path}>
                  {i.message} <span className="font-mono text-zinc-500">({i.path})</span>
                </div>
              ))}
              {status.description && <div>{status.description}</div>}
              {status.error && (
                <div className="break-words whitespace-pre-wrap text-red-400">last error: {status.error}</div>
              )}
            </>
          )}
        </div>
      )}
      {entries.map((e) => (
        <LibraryItem
          key={e.type}
          entry={e}
          icon={<Server size={10} className={state === 'up' ? 'text-indigo-400' : 'text-zinc-600'} />}
        />
      ))}
    </div>
  );
}

export function ServicesSection({ entries, filtered }: { entries: LibraryEntry[]; filtered: boolean }) {
  const report = useEditor((s) => s.services);
  if (!report) return null;
  const names = [
    ...report.services.map((s) => s.name),
    ...entries.map((e) => serviceOfCategory(e.category) ?? ''),
  ].filter((n, i, all) => n && all.indexOf(n) === i);
  const byService = (name: string) => entries.filter((e) => serviceOfCategory(e.category) === name);
  // While searching, show only services with matching types.
  const shown = filtered ? names.filter((n) => byService(n).length > 0) : names;
  if (filtered && shown.length === 0) return null;
  return (
    <div className="mt-2 border-t border-zinc-800 pt-1" data-testid="services-library">
      <div className="flex items-center px-1 text-[10px] font-semibold tracking-wider text-zinc-500 uppercase">
        Services
        <ReloadServicesButton />
      </div>
      {shown.length === 0 && report.config_errors.length === 0 && (
        <div className="px-1 text-[10px] text-zinc-600">
          No node services. List them in workspace/services.json, then reload.
        </div>
      )}
      {shown.map((name) => (
        <ServiceGroup
          key={name}
          name={name}
          status={report.services.find((s) => s.name === name)}
          entries={byService(name)}
          executorUrl={report.executor_url}
        />
      ))}
      {!filtered && report.config_errors.length > 0 && (
        <div className="mt-1 px-1" data-testid="services-config-errors">
          <div className="text-[10px] tracking-wide text-red-400 uppercase">services.json errors</div>
          {report.config_errors.map((e, i) => (
            <div
              key={i}
              data-testid="services-config-error"
              className="text-[10px] leading-snug text-red-300"
              title={`${e.path}: ${e.message}`}
            >
              <span className="font-mono text-zinc-500">{e.path}</span> {e.message}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

// Service-owned containers the open graph depends on: the manifest `containers` of every node service
// whose types the graph (or one of its composites) uses. They live in the service's process, never in
// the graph document: the State panel and the canvas show them read-only, with live values from
// nav_step (where they appear with `owner` = the service name).
import { useMemo } from 'react';
import type { Catalog } from '../../domain/catalog/catalog.schema.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { ServicesReport } from '../../domain/services/manifest.ts';
import { activeTab } from '../store/doc.slice.ts';
import { useEditor } from '../store/editor.store.ts';
import { serviceOfType } from './serviceIssues.ts';

export interface OwnedSlot {
  name: string;
  type: string;
  value_type: string;
  lifetime: string;
}

export interface OwnedContainer {
  service: string;
  id: string;
  label: string;
  slots: OwnedSlot[];
}

/** Names of the configured services whose types `graph` uses, sorted. */
export function servicesUsedBy(graph: GraphDef, catalog: Catalog, report: ServicesReport): string[] {
  const configured = new Set(report.services.map((s) => s.name));
  const used = new Set<string>();
  const visit = (g: GraphDef) => {
    for (const n of g.nodes) {
      if (n.subgraph && n.subgraph.nodes.length > 0) visit(n.subgraph);
      else {
        const svc = serviceOfType(n.type, catalog, report);
        if (svc && configured.has(svc)) used.add(svc);
      }
    }
  };
  visit(graph);
  return [...used].sort();
}

const str = (v: unknown, fallback: string) => (typeof v === 'string' && v ? v : fallback);

/** The manifest containers of `services`, slots normalized (the manifest's ContainerDef is loose). */
export function ownedContainers(report: ServicesReport, services: readonly string[]): OwnedContainer[] {
  const out: OwnedContainer[] = [];
  for (const name of services) {
    const status = report.services.find((s) => s.name === name);
    for (const c of status?.containers ?? []) {
      out.push({
        service: name,
        id: c.id,
        label: str(c.label, c.id),
        slots: Object.entries(c.states).map(([slot, def]) => ({
          name: slot,
          type: str(def.type, 'lastWrite'),
          value_type: str(def.value_type, 'ANY'),
          lifetime: str(def.lifetime, 'forever'),
        })),
      });
    }
  }
  return out;
}

const usedCache = new WeakMap<GraphDef, { catalog: Catalog; report: ServicesReport; key: string }>();

function usedKey(graph: GraphDef, catalog: Catalog, report: ServicesReport): string {
  const hit = usedCache.get(graph);
  if (hit && hit.catalog === catalog && hit.report === report) return hit.key;
  const key = servicesUsedBy(graph, catalog, report).join('\n');
  usedCache.set(graph, { catalog, report, key });
  return key;
}

const NONE: OwnedContainer[] = [];

/** The active tab's service-owned containers (stable while the graph's services and the report are). */
export function useServiceContainers(): OwnedContainer[] {
  const key = useEditor((s) => {
    const tab = activeTab(s);
    return tab && s.services ? usedKey(tab.graph, s.catalog, s.services) : '';
  });
  const report = useEditor((s) => s.services);
  return useMemo(() => (report && key ? ownedContainers(report, key.split('\n')) : NONE), [report, key]);
}

// Which node service a node type needs, and what is wrong with it: the message a node on the canvas
// and the Issues panel show when a graph uses a type whose service is down, still starting, not
// configured, or up without that function. Computed in the app from the catalog and the server's
// services report, so a graph opens and draws (from its edges' handles) whatever state services are in.
import type { Catalog } from '../../domain/catalog/catalog.schema.ts';
import type { GraphDef } from '../../domain/graph/graph.schema.ts';
import type { Issue } from '../../domain/validate/issues.ts';
import { nodesetOfType, serviceOfCategory, type ServicesReport } from '../../domain/services/manifest.ts';

export interface ServiceProblem {
  service: string;
  kind: 'missing' | 'down' | 'starting' | 'no-function';
  severity: 'error' | 'warning';
  message: string;
}

/**
 * The service that serves `type`: the catalog entry's `server:<name>` category, else the service
 * that lists the type, else — for a type the catalog does not know — its nodeset (`gridworld__step`
 * → `gridworld`, the reference's naming). Null for built-in and plugin types.
 */
export function serviceOfType(type: string, catalog: Catalog, report: ServicesReport): string | null {
  const spec = catalog.get(type);
  const byCategory = spec ? serviceOfCategory(spec.category) : null;
  if (byCategory) return byCategory;
  const owner = report.services.find((s) => s.types.includes(type));
  if (owner) return owner.name;
  return spec ? null : nodesetOfType(type);
}

const configHint = (report: ServicesReport) => {
  const n = report.config_errors.length;
  return n
    ? `; services.json has ${n} error${n === 1 ? '' : 's'}, listed under Services in the node library`
    : '';
};

/** Null when the type needs no service or its service is up and serves it (or no report yet). */
export function serviceProblem(
  type: string,
  catalog: Catalog,
  report: ServicesReport | null,
): ServiceProblem | null {
  if (!report) return null;
  const service = serviceOfType(type, catalog, report);
  if (!service) return null;
  const what = `type \`${type}\` is served by service '${service}'`;
  const status = report.services.find((s) => s.name === service);
  // Not configured: a warning, as the validator's "type not loaded" it replaces (the name is only a
  // guess from the reference's `<nodeset>__<fn>` convention; a plugin may use the same shape).
  if (!status)
    return {
      service,
      kind: 'missing',
      severity: 'warning',
      message: `${what}, but no service named '${service}' is configured (add it to workspace/services.json)${configHint(report)}`,
    };
  if (status.state === 'down')
    return {
      service,
      kind: 'down',
      severity: 'error',
      message: `${what}, which is down: ${status.error ?? 'no error reported'}`,
    };
  if (status.state === 'starting')
    return { service, kind: 'starting', severity: 'warning', message: `${what}, which is still starting` };
  // Up: the catalog may lag the report by a moment (it is refetched on components_changed).
  if (!catalog.has(type) && !status.types.includes(type))
    return {
      service,
      kind: 'no-function',
      severity: 'error',
      message: `${what}, which is up but does not offer it (it serves: ${status.types.join(', ') || 'nothing'})`,
    };
  return null;
}

const problemCache = new WeakMap<Catalog, WeakMap<ServicesReport, Map<string, ServiceProblem | null>>>();

/**
 * `serviceProblem`, the same object for the same (catalog, report, type): canvas nodes and the
 * inspector select it from the store, where a fresh object per call would re-render them.
 */
export function serviceProblemOf(
  type: string,
  catalog: Catalog,
  report: ServicesReport | null,
): ServiceProblem | null {
  if (!report) return null;
  let perCatalog = problemCache.get(catalog);
  if (!perCatalog) problemCache.set(catalog, (perCatalog = new WeakMap()));
  let perReport = perCatalog.get(report);
  if (!perReport) perCatalog.set(report, (perReport = new Map()));
  let p = perReport.get(type);
  if (p === undefined) perReport.set(type, (p = serviceProblem(type, catalog, report)));
  return p;
}

/**
 * One issue per node (root graph and composites, JSON paths as the validator writes them) whose
 * service has a problem. `code` is `service-<kind>`.
 */
export function serviceIssues(graph: GraphDef, catalog: Catalog, report: ServicesReport | null): Issue[] {
  if (!report) return [];
  const out: Issue[] = [];
  const visit = (g: GraphDef, base: string) => {
    g.nodes.forEach((n, i) => {
      const p = `${base}.nodes[${i}]`;
      if (n.subgraph && n.subgraph.nodes.length > 0) {
        visit(n.subgraph, `${p}.subgraph`);
        return;
      }
      const problem = serviceProblemOf(n.type, catalog, report);
      if (problem)
        out.push({
          code: `service-${problem.kind}`,
          severity: problem.severity,
          path: `${p}.type`,
          message: `node '${n.id}': ${problem.message}`,
          nodeId: n.id,
        });
    });
  };
  visit(graph, '$');
  return out;
}

// Edge rules that need each node's resolved ports: wire-type compatibility (docs/reference-system.md §1.11),
// handle names (iterIn/iterOut rules of 2.2 are errors, other known types warnings), and required
// inputs without an incoming edge. Nodes whose type is not loaded are skipped, like the reference.
import type { PortSpec } from '../catalog/catalog.schema.ts';
import type { EdgeDef, NodeDef } from '../graph/graph.schema.ts';
import { resolvePorts, type ResolvedPorts } from '../flow/ports.ts';
import { wireCompatibility } from '../flow/wireTypes.ts';
import { loopView } from '../flow/loopView.ts';
import { quote, type ValidateCtx } from './validate.ctx.ts';

/** Runtime routing: a missing target handle means "same name as the source handle". */
export const effectiveTargetHandle = (e: EdgeDef): string => e.targetHandle || e.sourceHandle;

function sourcePort(
  ctx: ValidateCtx,
  e: EdgeDef,
  i: number,
  src: NodeDef,
  ports: ResolvedPorts,
): PortSpec | undefined {
  if (!e.sourceHandle || !ports.known) return undefined; // "" routes the whole result dict
  const found = ports.outputs.find((p) => p.name === e.sourceHandle);
  if (found) return found;
  const valid = quote(ports.outputs.map((p) => p.name));
  const path = `.edges[${i}].sourceHandle`;
  const ids = { edgeId: e.id, nodeId: src.id };
  if (src.type === 'iterOut') {
    ctx.error(
      'iterout-final-side-only',
      path,
      `edge '${e.id}' leaves iterOut '${src.id}' from '${e.sourceHandle}': edges from iterOut are final-side only (${valid})`,
      ids,
    );
  } else if (src.type === 'iterIn') {
    ctx.error(
      'unknown-handle',
      path,
      `edge '${e.id}' references unknown handle '${e.sourceHandle}' of iterIn '${src.id}'; valid: ${valid}`,
      ids,
    );
  } else {
    ctx.warn(
      'unknown-handle',
      path,
      `edge '${e.id}' leaves '${src.id}' (${src.type}) from unknown output '${e.sourceHandle}'; outputs: ${valid || 'none'}`,
      ids,
    );
  }
  return undefined;
}

function targetPort(
  ctx: ValidateCtx,
  e: EdgeDef,
  i: number,
  tgt: NodeDef,
  ports: ResolvedPorts,
): PortSpec | undefined {
  const handle = effectiveTargetHandle(e);
  if (!handle || !ports.known) return undefined;
  // Edges land in any iterIn slot (an unlisted handle becomes an ANY init port), typed by the synthesis.
  const list = tgt.type === 'iterIn' ? ports.outputs : ports.inputs;
  const found = list.find((p) => p.name === handle);
  if (found || tgt.type === 'iterIn') return found;
  const valid = quote(ports.inputs.map((p) => p.name));
  const path = `.edges[${i}].targetHandle`;
  const ids = { edgeId: e.id, nodeId: tgt.id };
  if (tgt.type === 'iterOut') {
    ctx.error(
      'unknown-handle',
      path,
      `edge '${e.id}' references unknown handle '${handle}' of iterOut '${tgt.id}' (not a carry port and not 'stop'); valid: ${valid}`,
      ids,
    );
  } else {
    ctx.warn(
      'unknown-handle',
      path,
      `edge '${e.id}' enters '${tgt.id}' (${tgt.type}) at unknown input '${handle}'; inputs: ${valid || 'none'}`,
      ids,
    );
  }
  return undefined;
}

export function checkEdges(ctx: ValidateCtx): void {
  const g = ctx.graph;
  const portsOf = new Map<string, ResolvedPorts>();
  const view = loopView(g);
  const ports = (n: NodeDef): ResolvedPorts => {
    let r = portsOf.get(n.id);
    if (!r) portsOf.set(n.id, (r = resolvePorts(n, n.type === 'iterIn' ? view(n.id) : g, ctx.catalog)));
    return r;
  };
  g.edges.forEach((e, i) => {
    const src = ctx.nodeById.get(e.source);
    const tgt = ctx.nodeById.get(e.target);
    if (!src || !tgt) return; // dangling: reported by checkDanglingEdges
    const sp = sourcePort(ctx, e, i, src, ports(src));
    const tp = targetPort(ctx, e, i, tgt, ports(tgt));
    if (!sp || !tp) return;
    const c = wireCompatibility(sp.wire_type, tp.wire_type);
    if (c.ok) return;
    const what = c.kind === 'lossy' ? c.reason : `${sp.wire_type} → ${tp.wire_type}`;
    ctx.error(
      'wire-type-mismatch',
      `.edges[${i}]`,
      `Edge '${e.id}' type mismatch: ${what}: ${src.id}.${sp.name} → ${tgt.id}.${tp.name}`,
      { edgeId: e.id },
    );
  });

  // Required inputs of known node types need an incoming edge (docs/reference-system.md §2.2, first rule). The
  // reference skips nodeset types here, and its own sample graphs leave such inputs open (that node
  // just never becomes ready): for a node-service type it is a warning, so those graphs run.
  const wired = new Set(g.edges.map((e) => `${e.target}\u0000${effectiveTargetHandle(e)}`));
  g.nodes.forEach((n, i) => {
    if (ctx.nodeById.get(n.id) !== n) return; // a shadowed duplicate id
    const r = ports(n);
    if (!r.known) return;
    const missing = r.inputs
      .filter((p) => !p.optional && !wired.has(`${n.id}\u0000${p.name}`))
      .map((p) => p.name);
    if (missing.length === 0) return;
    const message = `Node '${n.id}' (type=${n.type}) has required input port(s) [${quote(missing)}] with no incoming edge.`;
    if (ctx.catalog.get(n.type)?.kind === 'service')
      ctx.warn(
        'required-input-unwired',
        `.nodes[${i}]`,
        `${message} A node-service type, so a warning (the reference runs such graphs): the node will not fire.`,
        { nodeId: n.id },
      );
    else ctx.error('required-input-unwired', `.nodes[${i}]`, message, { nodeId: n.id });
  });
}

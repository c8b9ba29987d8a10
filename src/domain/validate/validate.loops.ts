// Loop pivot rules (docs/reference-system.md §1.9, 2.2, 2.3): iterIn/iterOut pairing in both directions, one
// iterOut per iterIn, non-empty carry ports, and the retired pre-version-3 port keys.
import { loopPortsOf, pairedId } from '../flow/loopPorts.ts';
import type { ValidateCtx } from './validate.ctx.ts';

export function checkLoops(ctx: ValidateCtx): void {
  const nodes = ctx.graph.nodes;
  // iterIn id → iterOuts that name it (the reference's scope analysis follows iterOut.pairedWith).
  const pairedBy = new Map<string, string[]>();
  for (const n of nodes) {
    const to = n.type === 'iterOut' ? pairedId(n) : undefined;
    if (to) pairedBy.set(to, [...(pairedBy.get(to) ?? []), n.id]);
  }
  nodes.forEach((n, i) => {
    const p = `.nodes[${i}]`;
    const ids = { nodeId: n.id };
    const to = pairedId(n);
    const target = to ? ctx.nodeById.get(to) : undefined;
    if (n.type === 'iterIn') {
      for (const legacy of ['init_ports', 'loop_ports']) {
        if (n.config[legacy] !== undefined) {
          ctx.error(
            'iterin-legacy-ports',
            `${p}.config.${legacy}`,
            `iterIn '${n.id}' uses the legacy '${legacy}' schema; migrate to version 3 (initPorts on the iterIn, carry ports on the iterOut)`,
            ids,
          );
        }
      }
      if (to && target?.type !== 'iterOut') {
        ctx.error(
          'iterin-pairing-invalid',
          `${p}.config.pairedWith`,
          `iterIn '${n.id}' pairedWith '${to}' does not point to an iterOut node`,
          ids,
        );
      } else if (to && target && pairedId(target) !== undefined && pairedId(target) !== n.id) {
        ctx.warn(
          'pairing-mismatch',
          `${p}.config.pairedWith`,
          `iterIn '${n.id}' points to iterOut '${to}', but that iterOut is paired with '${pairedId(target)}'`,
          ids,
        );
      }
      const outs = pairedBy.get(n.id) ?? [];
      if (outs.length === 0)
        ctx.error('iterin-unpaired', p, `iterIn '${n.id}' has no iterOut whose pairedWith points at it`, ids);
      outs.slice(1).forEach((other) => {
        ctx.error(
          'duplicate-pairing',
          `${ctx.nodePath(other)}.config.pairedWith`,
          `iterOut '${other}' pairs with iterIn '${n.id}', which iterOut '${outs[0]}' already pairs with`,
          { nodeId: other },
        );
      });
    }
    if (n.type === 'iterOut') {
      const raw = n.config.ports;
      const ports = loopPortsOf(raw);
      if (ports.length === 0) {
        ctx.error(
          'iterout-without-ports',
          `${p}.config.ports`,
          `iterOut '${n.id}' must declare a non-empty config.ports`,
          ids,
        );
      } else if (Array.isArray(raw) && ports.length !== raw.length) {
        ctx.warn(
          'invalid-loop-port',
          `${p}.config.ports`,
          `iterOut '${n.id}' has ${raw.length - ports.length} port entr(ies) without a name (ignored)`,
          ids,
        );
      }
      if (!to)
        ctx.error(
          'iterout-unpaired',
          `${p}.config.pairedWith`,
          `iterOut '${n.id}' has no pairedWith (it must name its iterIn)`,
          ids,
        );
      else if (target?.type !== 'iterIn') {
        ctx.error(
          'iterout-pairing-invalid',
          `${p}.config.pairedWith`,
          `iterOut '${n.id}' pairedWith '${to}' does not point to an iterIn node`,
          ids,
        );
      }
    }
  });
}

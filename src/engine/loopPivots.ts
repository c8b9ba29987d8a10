// Loop pivots: what an iterIn and an iterOut do when they fire, and how a loop scope ends. An iterIn
// opens an iteration (step_start, its slots out); an iterOut records it, settles the scope's queued
// nodes, snapshots, signals step_end, then hands its carries back to the iterIn or terminates the
// scope (final side once, latches released). No user code runs here. The differences from the
// reference (settle before the snapshot, scoped step signals, `iteration`, null slots not forwarded)
// are in docs/reference-differences.md.
//
// The executor's step loop calls the pivots and they call back into it (fire, route, signal, the root
// step boundary) through the narrow StepLoop below, so this file does not import the executor.
import type { ClearedRef } from '../domain/protocol/protocol.ts';
import type { NodeDef, SynthesizedPort } from '../domain/graph/graph.schema.ts';
import type { ContainerState } from './container.ts';
import { deepFreeze } from './freeze.ts';
import type { LiveState } from './liveState.ts';
import type { RunContext } from './runContext.ts';
import { GRAPH_SCOPE } from './scopes.ts';

const SETTLE_LIMIT = 64;

/** What the pivots need from the executor's step loop. */
export interface StepLoop {
  /** The live state now (a restore replaces the object, so it is read on each use). */
  live(): LiveState;
  currentStep(): number;
  isFinished(): boolean;
  enqueue(id: string): void;
  signal(name: string, scope: string, payload?: unknown): ClearedRef[];
  fire(id: string): Promise<void>;
  /** Routes a pivot's outputs (a pivot proposes no features; a failed route ends the run). */
  routeOutputs(nodeId: string, result: Readonly<Record<string, unknown>>): void;
  logFire(node: NodeDef, step: number, error: string | null): void;
  /** The root step is complete: nav_step and checkpoint. */
  rootBoundary(before: ReadonlyMap<string, ContainerState>, cleared: ClearedRef[]): void;
}

export class LoopPivots {
  /** Set while a root boundary settles: those fires belong to the step that just completed. */
  settlingStep: number | undefined;

  constructor(
    private readonly rc: RunContext,
    private readonly loop: StepLoop,
  ) {}

  /** A value arrives at an iterIn's slot; the iterIn is queued once every wired handle has one. */
  deliver(target: NodeDef, handle: string, value: unknown): void {
    const rc = this.rc;
    const L = this.loop.live();
    L.slots[target.id] = { ...(L.slots[target.id] ?? {}), [handle]: value };
    const arrived = L.arrived[target.id] ?? [];
    if (!arrived.includes(handle)) L.arrived[target.id] = [...arrived, handle];
    const s = L.scopes[target.id];
    const wired = rc.wiredIterInHandles.get(target.id) ?? [];
    if (s && (!s.active || s.terminated) && wired.every((h) => L.arrived[target.id]!.includes(h)))
      this.loop.enqueue(target.id);
  }

  /** Opens an iteration: step_start for its scope, the slots out (persistent ones kept), `step`/`iteration`. */
  fireIterIn(node: NodeDef): void {
    const rc = this.rc;
    const L = this.loop.live();
    const s = L.scopes[node.id]!;
    if (s.terminated) L.scopes[node.id] = { counter: 0, terminated: false, active: false };
    const sc = L.scopes[node.id]!;
    const step = this.loop.currentStep();
    this.loop.signal('step_start', node.id, { step: sc.counter + 1, scope_id: node.id });
    const slots = L.slots[node.id] ?? {};
    // `step` is the root step count (the reference's ctx.step) in nested loops too, so memory keyed
    // by step gets the same keys; `iteration` is this loop's own count since it was (re)entered.
    const outputs: Record<string, unknown> = { step: L.step, iteration: sc.counter };
    // As the reference, only non-null slots are forwarded: a null (e.g. nullSource into a persistent
    // port) fires nothing downstream.
    for (const [k, v] of Object.entries(slots)) if (v !== null && v !== undefined) outputs[k] = v;
    const ports: SynthesizedPort[] = rc.iterInPorts.get(node.id) ?? [];
    const kept: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(slots)) {
      const p = ports.find((x) => x.name === k);
      if (p ? p.persist : false) kept[k] = v;
    }
    L.slots[node.id] = kept;
    L.arrived[node.id] = [];
    L.scopes[node.id] = { ...sc, active: true };
    this.loop.logFire(node, step, null);
    this.loop.routeOutputs(node.id, deepFreeze(outputs));
  }

  /** Ends an iteration: record, settle, snapshot, step_end, then hand off or terminate (numbered below). */
  async fireIterOut(node: NodeDef): Promise<void> {
    const rc = this.rc;
    const L = this.loop.live();
    const inputs = L.pending[node.id] ?? {};
    delete L.pending[node.id];
    const scopeId = rc.scopes.byIterOut.get(node.id);
    if (scopeId === undefined) return;
    const info = rc.scopes.scopes.get(scopeId)!;
    const carries: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(inputs)) if (k !== 'stop') carries[k] = v;
    L.carry = { ...L.carry, [node.id]: { ...(L.carry[node.id] ?? {}), ...carries } };
    const isRoot = scopeId === rc.scopes.roots[0];
    // 1. Record
    const sc = { ...L.scopes[scopeId]! };
    sc.counter += 1;
    L.scopes[scopeId] = sc;
    if (isRoot) L.step += 1;
    const step = isRoot ? L.step : this.loop.currentStep();
    this.loop.logFire(node, step, null);
    // 2. Settle: already-queued nodes of this scope (root: also the graph scope), never an iterIn.
    // Their writes land in this step's snapshot, so their events carry this step's number too.
    if (isRoot) this.settlingStep = L.step;
    try {
      await this.settle(scopeId, isRoot);
    } finally {
      this.settlingStep = undefined;
    }
    if (this.loop.isFinished()) return; // a failed route ended the run: nothing of the step is committed
    // 3. Snapshot before step_end, so step-lifetime slots show what this step wrote.
    const before = isRoot
      ? new Map<string, ContainerState>([...rc.containers].map(([id, c]) => [id, c.state]))
      : undefined;
    const cleared = this.loop.signal('step_end', scopeId, { step: sc.counter, scope_id: scopeId });
    // 4. Decide
    const budget = rc.budgetOf(scopeId);
    const stop = Boolean(inputs.stop);
    if (stop || sc.counter >= budget) {
      this.terminate(scopeId, node.id);
    } else {
      // 5. Hand off the carries to the paired iterIn and re-queue it.
      const ports = rc.iterInPorts.get(info.iterIn) ?? [];
      const slots = { ...(L.slots[info.iterIn] ?? {}) };
      for (const [k, v] of Object.entries(carries))
        if (ports.some((p) => p.name === `iterout_${k}`)) slots[`iterout_${k}`] = v;
      L.slots[info.iterIn] = slots;
      this.loop.enqueue(info.iterIn);
    }
    if (isRoot && before && !this.loop.isFinished()) this.loop.rootBoundary(before, cleared);
  }

  /** Fires up to SETTLE_LIMIT already-queued nodes of `scopeId` (root: also graph scope), never pivots. */
  private async settle(scopeId: string, isRoot: boolean): Promise<void> {
    const rc = this.rc;
    const L = this.loop.live();
    for (let n = 0; n < SETTLE_LIMIT; n++) {
      const idx = L.queue.findIndex((q) => {
        const qs = rc.scopes.scopeOf.get(q) ?? GRAPH_SCOPE;
        const qn = rc.nodes.get(q);
        return (
          qn?.type !== 'iterIn' &&
          qn?.type !== 'iterOut' &&
          (qs === scopeId || (isRoot && qs === GRAPH_SCOPE))
        );
      });
      if (idx < 0) break;
      const [q] = L.queue.splice(idx, 1);
      await this.loop.fire(q!);
    }
  }

  /** Ends a scope: final side once, latches released; a root scope ends the loop phase. */
  private terminate(scopeId: string, iterOutId: string): void {
    const rc = this.rc;
    const L = this.loop.live();
    L.scopes[scopeId] = { ...L.scopes[scopeId]!, terminated: true, active: false };
    const info = rc.scopes.scopes.get(scopeId)!;
    const final: Record<string, unknown> = { final_stop: true };
    for (const [k, v] of Object.entries(L.carry[iterOutId] ?? {})) final[`final_${k}`] = v;
    if (!info.parent && rc.scopes.roots.every((r) => L.scopes[r]?.terminated)) L.rootTerminated = true;
    this.loop.routeOutputs(iterOutId, deepFreeze(final));
    if (this.loop.isFinished()) return; // its final side failed to route
    for (const [gid, v] of Object.entries(L.latches)) {
      if (rc.scopes.scopeOf.get(gid) !== scopeId) continue;
      const rest = { ...L.latches };
      delete rest[gid];
      L.latches = rest;
      this.loop.routeOutputs(gid, { value: v });
    }
  }

  /** The queue drained with root loops still open: each ends with a final side rebuilt from its slots. */
  endOpenRoots(): void {
    const rc = this.rc;
    const L = this.loop.live();
    for (const r of rc.scopes.roots) {
      if (L.scopes[r]?.terminated) continue;
      // Fallback: rebuild the final side from the iterIn's iterout_* slots.
      const info = rc.scopes.scopes.get(r)!;
      const fromSlots: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(L.slots[r] ?? {}))
        if (k.startsWith('iterout_')) fromSlots[k.slice(8)] = v;
      L.carry = { ...L.carry, [info.iterOut]: { ...fromSlots, ...(L.carry[info.iterOut] ?? {}) } };
      if (L.scopes[r]?.active || L.scopes[r]!.counter > 0) this.terminate(r, info.iterOut);
    }
  }
}

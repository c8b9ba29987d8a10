// Time travel that includes node services (docs/node-services-protocol.md "Snapshots"): after each
// step, the services the run called since its last snapshot (a call or an eviction in its name is
// what can change a service's state for that run) are asked for `POST /snapshot`; the others keep
// the blob they had. The record of the step (service → blob id, or why there is none) is stored
// beside the step's checkpoint (db/serviceSnapshotStore.ts); restore, fork and adopt send the
// record's blobs back with `POST /restore`, so the grids, RNGs and stats a service holds for the run
// are those of that step. A service without snapshot support never blocks time travel: the record
// says so, and putting the run back warns, naming the service.
import type { ServiceSnapshotMap, ServiceSnapshotStore } from '../db/serviceSnapshotStore.ts';
import type { RunServiceState, ServiceStateWarning } from '../ports/serviceState.ts';
import type { ServiceManager } from './serviceManager.ts';

/** What this server knows about one run's services since its last snapshot. */
interface Tracked {
  /** Services the run has called (or evicted in), ever: each is in every later record. */
  called: Set<string>;
  /** Called or evicted in since the last record: their state may differ from `last`. */
  dirty: Set<string>;
  /** The last record (service → blob id or reason). */
  last: ServiceSnapshotMap;
  /** Services whose failed snapshot was already reported for this run (one warning each). */
  warned: Set<string>;
}

export const NO_SNAPSHOT_SUPPORT = 'it has no snapshot support (its manifest does not say "snapshot": true)';

export class ServiceSnapshots implements RunServiceState {
  private readonly runs = new Map<string, Tracked>();

  constructor(
    private readonly services: ServiceManager,
    private readonly store: ServiceSnapshotStore,
  ) {
    services.onTouch((runId, service) => {
      const t = this.track(runId);
      t.called.add(service);
      t.dirty.add(service);
    });
  }

  private track(runId: string): Tracked {
    let t = this.runs.get(runId);
    if (!t) {
      t = { called: new Set(), dirty: new Set(), last: {}, warned: new Set() };
      this.runs.set(runId, t);
    }
    return t;
  }

  capture(runId: string, step: number, ended: boolean): Promise<ServiceStateWarning[]> | undefined {
    const t = this.runs.get(runId);
    if (!t || t.called.size === 0) return undefined;
    return this.captureNow(runId, step, t, ended);
  }

  private async captureNow(
    runId: string,
    step: number,
    t: Tracked,
    ended: boolean,
  ): Promise<ServiceStateWarning[]> {
    // An eviction the step started (episode_reset) changes the state the snapshot must hold.
    await this.services.evictionsDone(runId);
    const warnings: ServiceStateWarning[] = [];
    const record: ServiceSnapshotMap = {};
    const stillDirty = new Set<string>();
    const taken: Array<[string, Uint8Array]> = [];
    await Promise.all(
      [...t.called].map(async (name) => {
        const before = t.last[name];
        if (!t.dirty.has(name) && before !== undefined) return void (record[name] = before);
        const target = this.services.snapshotTarget(name);
        if ('down' in target) {
          stillDirty.add(name);
          record[name] = `its snapshot after step ${step} could not be taken: ${target.down}`;
          if (!t.warned.has(name)) {
            t.warned.add(name);
            warnings.push(failed(name, step, record[name]));
          }
          return;
        }
        if (!target.snapshot) return void (record[name] = NO_SNAPSHOT_SUPPORT);
        try {
          taken.push([name, await target.client.snapshot(runId)]);
        } catch (e) {
          stillDirty.add(name);
          record[name] = `its snapshot after step ${step} failed: ${(e as Error).message}`;
          if (!t.warned.has(name)) {
            t.warned.add(name);
            warnings.push(failed(name, step, record[name]));
          }
        }
      }),
    );
    this.store.transaction(() => {
      for (const [name, bytes] of taken) record[name] = this.store.putBlob(bytes);
      this.store.put(runId, step, record);
    });
    t.last = record;
    t.dirty = stillDirty;
    // Over: the services may free what they hold for the run; a later restore or fork puts it back
    // from the records.
    if (ended) this.release(runId, t);
    return warnings;
  }

  private release(runId: string, t: Tracked): void {
    this.runs.delete(runId);
    for (const name of t.called) {
      const target = this.services.snapshotTarget(name);
      if (!('down' in target) && target.snapshot && typeof t.last[name] === 'number')
        void target.client.restore(runId, null).catch(() => undefined); // freeing memory only
    }
  }

  async putBack(from: { runId: string; step: number }, toRunId: string): Promise<ServiceStateWarning[]> {
    const record = this.store.at(from.runId, from.step) ?? {};
    const names = new Set([
      ...Object.keys(record),
      ...this.store.servicesOf(from.runId),
      ...(this.runs.get(from.runId)?.called ?? []),
      ...(this.runs.get(toRunId)?.called ?? []),
    ]);
    if (names.size === 0) return [];
    const warnings: ServiceStateWarning[] = [];
    const at = from.step;
    const dirty = new Set<string>();
    await Promise.all(
      [...names].map(async (name) => {
        const saved = record[name];
        const target = this.services.snapshotTarget(name);
        const unsupported = 'down' in target ? null : !target.snapshot;
        if (typeof saved === 'string' || unsupported) {
          const why = typeof saved === 'string' ? saved : NO_SNAPSHOT_SUPPORT;
          warnings.push({
            service: name,
            step: at,
            code: why === NO_SNAPSHOT_SUPPORT ? 'service-snapshot-unsupported' : 'service-snapshot-failed',
            message: `service '${name}' was not put back to step ${at}: ${why}; it goes on from the state it has now`,
          });
          dirty.add(name);
          return;
        }
        if ('down' in target) {
          warnings.push(restoreFailed(name, at, target.down));
          dirty.add(name);
          return;
        }
        // Not called by then: the run starts that service afresh, as it did the first time.
        const bytes = saved === undefined ? null : this.store.blob(saved);
        if (saved !== undefined && bytes === undefined) {
          warnings.push(restoreFailed(name, at, `its snapshot (blob ${saved}) is missing from the database`));
          dirty.add(name);
          return;
        }
        try {
          await target.client.restore(toRunId, bytes ?? null);
        } catch (e) {
          warnings.push(restoreFailed(name, at, (e as Error).message));
          dirty.add(name);
        }
      }),
    );
    // The run now continues from the record: services in it are its called ones, as they were.
    const t: Tracked = {
      called: new Set(Object.keys(record)),
      dirty,
      last: record,
      warned: new Set(),
    };
    for (const name of dirty) if (record[name] !== undefined) t.called.add(name);
    this.runs.set(toRunId, t);
    // A fork's own history starts at its fork step: its record there is the parent's.
    if (toRunId !== from.runId && Object.keys(record).length > 0) this.store.put(toRunId, at, record);
    return warnings;
  }

  keepTail(runId: string, branchId: string, afterStep: number): void {
    this.store.copyAfter(runId, branchId, afterStep);
  }

  forget(runId: string): void {
    this.runs.delete(runId);
    this.store.remove(runId);
  }
}

function failed(service: string, step: number, why: string): ServiceStateWarning {
  return {
    service,
    step,
    code: 'service-snapshot-failed',
    message: `service '${service}': ${why}; a restore to this step cannot put it back`,
  };
}

function restoreFailed(service: string, step: number, why: string): ServiceStateWarning {
  return {
    service,
    step,
    code: 'service-restore-failed',
    message: `service '${service}' was not put back to step ${step}: ${why}; it goes on from the state it has now`,
  };
}

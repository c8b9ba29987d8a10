// What the run manager needs from node services for time travel (services/serviceSnapshots.ts
// implements it): a run's state is also what the services it called hold for it, so a step's
// checkpoint gets their snapshots, and restore / fork / adopt put them back. Declared here so the run
// manager does not depend on the services layer, nor services on runs (docs/architecture.md floors;
// the server wires the two together in app.ts).

/** A service whose state could not be put back (or saved): the run goes on, and its log says so. */
export interface ServiceStateWarning {
  service: string;
  /** The step whose state it is about. */
  step: number;
  code: 'service-snapshot-unsupported' | 'service-snapshot-failed' | 'service-restore-failed';
  message: string;
}

export interface RunServiceState {
  /**
   * After step `step` of `runId`: snapshot the services the run called whose state may have changed,
   * and store the record with the step. Undefined when there is nothing to do (no service called),
   * so a run without services pays nothing. `ended`: the run is over; services may free its state.
   */
  capture(runId: string, step: number, ended: boolean): Promise<ServiceStateWarning[]> | undefined;
  /**
   * Puts every service `from.runId` called back to its state after `from.step`, as run `toRunId`
   * (the same run for a restore, the new run for a fork). Never throws: what could not be put back
   * comes back as warnings naming the service.
   */
  putBack(from: { runId: string; step: number }, toRunId: string): Promise<ServiceStateWarning[]>;
  /** A restore kept the steps after `afterStep` of `runId` as the branch `branchId`: they keep their records. */
  keepTail(runId: string, branchId: string, afterStep: number): void;
  /** The run was deleted. */
  forget(runId: string): void;
}

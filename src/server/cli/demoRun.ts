// First-launch experience of `npm start`: when the workspace has never run anything, start the demo
// graph on the embedded backend, so the editor opens on a run that is already streaming (the page
// re-attaches to a live run on load). Later launches leave history alone and start nothing.
// It goes through the public REST API, exactly as the editor's Play button does.

export const DEMO_GRAPH_ID = 'grid_navigator';
/** Slow enough that a person opening the browser after `npm start` still sees it running. */
export const DEMO_STEP_DELAY_MS = 1000;

export type DemoRunResult =
  | { started: true; runId: string }
  | { started: false; reason: 'has-history' | 'no-demo-graph' | 'failed'; detail?: string };

export async function startDemoRunIfFirstLaunch(baseUrl: string, token?: string): Promise<DemoRunResult> {
  // A server bound beyond loopback (or started with --token) wants its token on every API call.
  const auth: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  try {
    const runs = (await (await fetch(`${baseUrl}/api/runs`, { headers: auth })).json()) as unknown[];
    if (Array.isArray(runs) && runs.length > 0) return { started: false, reason: 'has-history' };
    const graphRes = await fetch(`${baseUrl}/api/graphs/${DEMO_GRAPH_ID}`, { headers: auth });
    if (!graphRes.ok) return { started: false, reason: 'no-demo-graph' };
    const graph = (await graphRes.json()) as Record<string, unknown>;
    // Listing metadata (_id, _path, …) is not part of the graph.
    const loop_definition = Object.fromEntries(Object.entries(graph).filter(([k]) => !k.startsWith('_')));
    const res = await fetch(`${baseUrl}/api/navigate/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ loop_definition, step_delay_ms: DEMO_STEP_DELAY_MS }),
    });
    const body = (await res.json()) as { execution_id?: string; error?: { message?: string } };
    if (!res.ok || !body.execution_id)
      return { started: false, reason: 'failed', detail: body.error?.message };
    return { started: true, runId: body.execution_id };
  } catch (err) {
    return { started: false, reason: 'failed', detail: (err as Error).message };
  }
}

// The smallest graph that writes state: a constant feeding a stateWrite into container `mem`
// (slot `log`, an accumulator), the writer granted to it. Runs in `stepBudget` steps, no loop.
export function writerGraph(
  name: string,
  opts: { writer?: string; value?: string; stepBudget?: number } = {},
) {
  const writer = opts.writer ?? 'writer';
  return {
    name,
    eval_graph: false,
    step_budget: opts.stepBudget ?? 1,
    nodes: [
      { id: 'seed', type: 'constant', position: { x: 0, y: 0 }, config: { value: opts.value ?? 'hello' } },
      {
        id: writer,
        type: 'stateWrite',
        position: { x: 320, y: 0 },
        config: { container: 'mem', state: 'log' },
      },
    ],
    edges: [{ id: 'e1', source: 'seed', target: writer, sourceHandle: 'value', targetHandle: 'value' }],
    containers: [{ id: 'mem', position: { x: 320, y: 260 }, states: { log: { type: 'accumulator' } } }],
    access_grants: [{ id: `g_${writer}_mem`, node_id: writer, container_id: 'mem' }],
  };
}

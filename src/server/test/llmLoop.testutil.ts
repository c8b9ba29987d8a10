// The llmCall loop the recorded-effects tests run (docs/replay.md): a constant goal enters a loop
// whose `think` node makes one LLM call per step (with no profile, the offline provider answers and
// every call is recorded), its answer kept as the loop's note. One call per step keeps the counts
// of recorded, replayed and reused calls plain to read.

/** The prompt of `think` unless a test edits it. */
const LLM_LOOP_TEMPLATE = 'Goal: {instruction}. Next move?';

/** The loop graph named `name`, `steps` steps long, `think` prompted with `template`. */
export function llmLoopGraph(name: string, steps: number, template = LLM_LOOP_TEMPLATE) {
  return {
    name,
    step_budget: steps,
    eval_graph: false,
    nodes: [
      {
        id: 'goal',
        type: 'constant',
        config: { value: 'find the door', wire_type: 'TEXT' },
        position: { x: 0, y: 0 },
      },
      {
        id: 'loop_in',
        type: 'iterIn',
        config: {
          version: 3,
          pairedWith: 'loop_out',
          initPorts: [{ name: 'goal', wire_type: 'TEXT', persist: true }],
        },
        position: { x: 250, y: 0 },
      },
      { id: 'think', type: 'llmCall', config: { profile: '', template }, position: { x: 500, y: 0 } },
      {
        id: 'loop_out',
        type: 'iterOut',
        config: { pairedWith: 'loop_in', ports: [{ name: 'note', wire_type: 'TEXT', persist: true }] },
        position: { x: 750, y: 0 },
      },
    ],
    edges: [
      { id: 'e1', source: 'goal', target: 'loop_in', sourceHandle: 'value', targetHandle: 'init_goal' },
      {
        id: 'e2',
        source: 'loop_in',
        target: 'think',
        sourceHandle: 'init_goal',
        targetHandle: 'instruction',
      },
      { id: 'e3', source: 'think', target: 'loop_out', sourceHandle: 'response', targetHandle: 'note' },
    ],
  };
}

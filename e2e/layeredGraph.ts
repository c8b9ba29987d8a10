// A big generated graph for the canvas specs: columns of `rows` llmCall/textParse nodes (280 × 160 px
// apart), each node fed by the one at its row in the previous column.
export function layeredGraph(rows: number, cols: number) {
  const nodes = [];
  const edges = [];
  for (let i = 0; i < rows * cols; i++) {
    const col = Math.floor(i / rows);
    const type = col % 2 === 0 ? 'llmCall' : 'textParse';
    nodes.push({
      id: `n${i}`,
      type,
      label: `n${i}`,
      position: { x: col * 280, y: (i % rows) * 160 },
      config: {},
    });
    if (col > 0)
      edges.push({
        id: `e${i}`,
        source: `n${i - rows}`,
        target: `n${i}`,
        sourceHandle: (col - 1) % 2 === 0 ? 'response' : 'value',
        targetHandle: type === 'llmCall' ? 'prompt' : 'text',
      });
  }
  return { nodes, edges };
}

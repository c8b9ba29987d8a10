// Example node-type plugin: upper-cases its text input. Any .ts/.js file in workspace/nodes that
// default-exports {spec, handler} (or an array of them) is loaded at start.
export default {
  spec: {
    type: 'uppercase',
    display_name: 'Uppercase',
    category: 'processing',
    icon: 'case-upper',
    description: 'Upper-cases the text it receives.',
    input_ports: [{ name: 'text', wire_type: 'TEXT', optional: false }],
    output_ports: [{ name: 'text', wire_type: 'TEXT' }],
    docs: 'Example plugin (workspace/nodes/uppercase.ts).',
  },
  handler: (inputs: Readonly<Record<string, unknown>>) => ({ text: String(inputs.text ?? '').toUpperCase() }),
};

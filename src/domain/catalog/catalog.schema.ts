// Node catalog entries in the reference's shape (GET /api/components/node-schemas, docs/reference-system.md §1.8).
// Built-in specs live in catalog.builtins.ts; plugins add entries at server start.
import { z } from 'zod';

export const PortSpecSchema = z.object({
  name: z.string(),
  wire_type: z.string().default('ANY'),
  description: z.string().default(''),
  optional: z.boolean().default(true),
});
export type PortSpec = z.infer<typeof PortSpecSchema>;

export const NodeSpecSchema = z.object({
  type: z.string(),
  display_name: z.string(),
  description: z.string().default(''),
  category: z.string().default('processing'),
  icon: z.string().default('box'),
  kind: z.string().default('builtin'),
  /** How `config.ports` overrides the class ports: sink | source | input | mirror (or none). */
  ports_mode: z.string().nullable().default(null),
  config_schema: z.record(z.string(), z.unknown()).default({}),
  default_config: z.record(z.string(), z.unknown()).default({}),
  ui_config: z
    .object({
      color: z.string().default('#52525b'),
      layout: z.string().default('block'),
      width: z.number().optional(),
      min_height: z.number().optional(),
      config_fields: z.array(z.string()).default([]),
      display_fields: z.array(z.string()).default([]),
    })
    .catchall(z.unknown())
    .default({ color: '#52525b', layout: 'block', config_fields: [], display_fields: [] }),
  input_ports: z.array(PortSpecSchema).default([]),
  output_ports: z.array(PortSpecSchema).default([]),
  /** Markdown docs shown in the library and inspector. */
  docs: z.string().default(''),
});
export type NodeSpec = z.infer<typeof NodeSpecSchema>;
export type NodeSpecInput = z.input<typeof NodeSpecSchema>;

export type Catalog = ReadonlyMap<string, NodeSpec>;

export function makeCatalog(specs: readonly NodeSpecInput[]): Map<string, NodeSpec> {
  return new Map(
    specs.map((s) => {
      const spec = NodeSpecSchema.parse(s);
      return [spec.type, spec] as const;
    }),
  );
}

/**
 * A catalog from entries that arrived from elsewhere (the server's answer), each parsed once: an
 * entry that does not parse is left out and counted, never thrown.
 */
export function parseCatalog(entries: readonly unknown[]): {
  catalog: Map<string, NodeSpec>;
  rejected: number;
} {
  const catalog = new Map<string, NodeSpec>();
  let rejected = 0;
  for (const entry of entries) {
    const r = NodeSpecSchema.safeParse(entry);
    if (r.success) catalog.set(r.data.type, r.data);
    else rejected++;
  }
  return { catalog, rejected };
}

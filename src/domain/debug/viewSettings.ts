// A graph's view settings: what the editor keeps about a graph that is not part of the graph itself
// (and so never in its reference-format file) — today its breakpoints. Stored by the server beside
// the run database, one small file per graph id.
import { z } from 'zod';
import { BreakpointListSchema } from './breakpoints.ts';

export const ViewSettingsSchema = z
  .object({
    breakpoints: BreakpointListSchema.default([]),
  })
  .strict();
export type ViewSettings = z.infer<typeof ViewSettingsSchema>;

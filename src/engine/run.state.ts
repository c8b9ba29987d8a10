// The run state shape hosts read (GET state, the `restored` event): protocol's RunState.
import type { z } from 'zod';
import type { RunStateSchema } from '../domain/protocol/protocol.ts';

export type RunState = z.infer<typeof RunStateSchema>;

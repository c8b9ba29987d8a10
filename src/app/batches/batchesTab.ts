// The drawer tab id of the Batches view, named once so the batch code and the drawer agree on it.
import type { DrawerTab } from '../store/ui.slice.ts';

export const BATCHES_TAB: DrawerTab = 'batches';

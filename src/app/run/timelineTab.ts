// The drawer tab id of the Timeline, named once so the run code and the drawer agree on it.
import type { DrawerTab } from '../store/ui.slice.ts';

export const TIMELINE_TAB: DrawerTab = 'timeline';

// The drawer tab id of the Timeline. The editor's DrawerTab union does not list it (yet), so the
// id is widened here once instead of casting at every use.
import type { DrawerTab } from '../store/ui.slice.ts';

export const TIMELINE_TAB = 'timeline' as string as DrawerTab;

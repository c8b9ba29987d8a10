// Every editor command in one list: the menu, the command palette, the shortcuts and the
// cheatsheet all read it, so a command has one name and one shortcut everywhere.
import { activeTab } from '../store/doc.slice.ts';
import { addAtViewCentre, CONTAINER_ENTRY, deleteSelection } from '../store/actions.ts';
import { editorStore } from '../store/editor.store.ts';
import { copySelection, duplicateSelection, pasteClipboard } from './clipboard.ts';
import { autoLayout } from './layout.ts';
import { groupSelection, ungroupSelection } from './composites.ts';
import { downloadActive } from '../files/importExport.ts';
import { saveTab } from '../files/documents.ts';
import { RUN_COMMANDS } from './runCommands.ts';
import { reloadServices } from '../services/servicesSync.ts';
import { showGraphDiff } from '../compare/GraphDiffView.tsx';

export interface Command {
  id: string;
  title: string;
  /** Display form, e.g. "Ctrl+Z". */
  shortcut?: string;
  run(): void;
}

const st = () => editorStore.getState();

/** Asks the file picker (owned by the top bar) to open. */
export function openFilePicker() {
  document.getElementById('import-file-input')?.click();
}

export function closeActiveTab() {
  const tab = activeTab(st());
  if (!tab) return;
  if (tab.dirty) st().setDialog({ kind: 'confirmClose', tabId: tab.id });
  else st().closeTab(tab.id);
}

export const COMMANDS: Command[] = [
  { id: 'file.new', title: 'New graph', shortcut: 'Alt+N', run: () => st().newTab() },
  { id: 'file.save', title: 'Save', shortcut: 'Ctrl+S', run: () => void saveTab() },
  {
    id: 'file.saveAs',
    title: 'Save as…',
    shortcut: 'Ctrl+Shift+S',
    run: () => {
      const t = activeTab(st());
      if (t) st().setDialog({ kind: 'saveAs', tabId: t.id });
    },
  },
  {
    id: 'file.rename',
    title: 'Rename saved graph…',
    run: () => {
      const t = activeTab(st());
      if (t) st().setDialog({ kind: 'rename', tabId: t.id });
    },
  },
  { id: 'file.import', title: 'Import .json file…', shortcut: 'Ctrl+O', run: openFilePicker },
  { id: 'file.export', title: 'Export canonical JSON', shortcut: 'Ctrl+E', run: () => downloadActive() },
  { id: 'file.close', title: 'Close tab', shortcut: 'Alt+W', run: closeActiveTab },
  { id: 'graph.diff', title: 'Diff graph with a run or file…', run: () => showGraphDiff() },
  { id: 'edit.undo', title: 'Undo', shortcut: 'Ctrl+Z', run: () => st().undo() },
  { id: 'edit.redo', title: 'Redo', shortcut: 'Ctrl+Shift+Z', run: () => st().redo() },
  { id: 'edit.delete', title: 'Delete selection', shortcut: 'Delete', run: () => void deleteSelection() },
  { id: 'edit.copy', title: 'Copy selection', shortcut: 'Ctrl+C', run: () => void copySelection() },
  { id: 'edit.paste', title: 'Paste', shortcut: 'Ctrl+V', run: () => void pasteClipboard() },
  { id: 'edit.duplicate', title: 'Duplicate selection', shortcut: 'Ctrl+D', run: () => duplicateSelection() },
  {
    id: 'edit.container',
    title: 'Add state container',
    shortcut: 'C',
    run: () => {
      const r = addAtViewCentre(CONTAINER_ENTRY);
      if (r.ok && r.ids) st().setSelection({ nodes: [], containers: r.ids, edges: [], grants: [] });
    },
  },
  {
    id: 'edit.group',
    title: 'Group selection into composite',
    shortcut: 'Ctrl+G',
    run: () => groupSelection(),
  },
  { id: 'edit.ungroup', title: 'Ungroup composite', shortcut: 'Ctrl+Shift+G', run: () => ungroupSelection() },
  {
    id: 'view.state',
    title: 'Toggle State (containers and grants)',
    shortcut: 'S',
    run: () => {
      const t = activeTab(st());
      if (t) st().setStateVisible(!t.stateVisible);
    },
  },
  { id: 'view.fit', title: 'Fit view', shortcut: 'F', run: () => st().requestFit() },
  { id: 'view.layout', title: 'Auto-layout', shortcut: 'L', run: () => void autoLayout() },
  { id: 'view.snap', title: 'Toggle snap to grid', shortcut: 'G', run: () => st().toggleSnap() },
  { id: 'view.palette', title: 'Command palette', shortcut: 'Ctrl+K', run: () => st().setOverlay('palette') },
  {
    id: 'view.cheatsheet',
    title: 'Keyboard shortcuts',
    shortcut: '?',
    run: () => st().setOverlay('cheatsheet'),
  },
  {
    id: 'view.up',
    title: 'Leave composite (up one level)',
    shortcut: 'Backspace on empty selection',
    run: () => {
      const t = activeTab(st());
      if (t && t.path.length) st().exitToDepth(t.path.length - 1);
    },
  },
  {
    id: 'services.reload',
    title: 'Reload services (services.json, manifests)',
    run: () => void reloadServices(editorStore),
  },
  ...RUN_COMMANDS,
];

export function runCommand(id: string) {
  COMMANDS.find((c) => c.id === id)?.run();
}

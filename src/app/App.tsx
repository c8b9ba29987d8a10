// The editor shell: top bar; left sidebar (graphs explorer + node library); the run notices' bar
// over the canvas (with the breadcrumb) and the service containers docked at its right; right
// inspector; bottom drawer; overlays (palette, cheatsheet, dialogs, toast). Each panel has its own error boundary, so one panel's render error
// does not blank the editor.
import { Suspense } from 'react';
import { Breadcrumb } from './Breadcrumb.tsx';
import { Canvas } from './canvas/Canvas.tsx';
import { ServiceContainersPanel } from './canvas/ServiceContainersPanel.tsx';
import { useShortcuts } from './commands/useShortcuts.ts';
import { Drawer } from './panels/Drawer.tsx';
import { GraphsExplorer } from './panels/explorer/GraphsExplorer.tsx';
import { Inspector } from './panels/inspector/Inspector.tsx';
import { NodeLibrary } from './panels/library/NodeLibrary.tsx';
import { TopBar } from './TopBar.tsx';
import { activeTab } from './store/doc.slice.ts';
import { useEditor } from './store/editor.store.ts';
import { RunNoticeBar } from './run/RunNotices.tsx';
import { PanelBoundary } from './ui/PanelBoundary.tsx';
import { Toast } from './ui/Toast.tsx';
import { lazyNamed } from './ui/lazyNamed.ts';

// Overlays (closed at start) are chunks of their own: off the first render's path.
const CommandPalette = lazyNamed(() => import('./commands/CommandPalette.tsx'), 'CommandPalette');
const Cheatsheet = lazyNamed(() => import('./commands/Cheatsheet.tsx'), 'Cheatsheet');
const Dialogs = lazyNamed(() => import('./files/Dialogs.tsx'), 'Dialogs');
const UnreadableFileView = lazyNamed(() => import('./files/UnreadableFileView.tsx'), 'UnreadableFileView');

/** A tab whose file does not read as a graph shows its error view over the canvas. */
function UnreadableGate() {
  const unreadable = useEditor((s) => Boolean(activeTab(s)?.unreadable));
  return unreadable ? (
    <Suspense fallback={null}>
      <UnreadableFileView />
    </Suspense>
  ) : null;
}

export function App() {
  useShortcuts();
  return (
    <div className="flex h-screen flex-col overflow-hidden bg-zinc-950 text-zinc-200">
      <TopBar />
      <div className="flex min-h-0 flex-1">
        <aside className="flex w-56 shrink-0 flex-col border-r border-zinc-800 bg-zinc-925">
          <PanelBoundary name="Graphs">
            <GraphsExplorer />
          </PanelBoundary>
          <PanelBoundary name="Library">
            <NodeLibrary />
          </PanelBoundary>
        </aside>
        <main className="flex min-w-0 flex-1 flex-col">
          <RunNoticeBar />
          <div className="flex min-h-0 flex-1">
            <div className="relative min-w-0 flex-1">
              <PanelBoundary name="Canvas">
                <Breadcrumb />
                <Canvas />
                <UnreadableGate />
              </PanelBoundary>
            </div>
            <ServiceContainersPanel />
          </div>
          <PanelBoundary name="Drawer">
            <Drawer />
          </PanelBoundary>
        </main>
        <PanelBoundary name="Inspector">
          <Inspector />
        </PanelBoundary>
      </div>
      <PanelBoundary name="Dialogs">
        <Suspense fallback={null}>
          <CommandPalette />
          <Cheatsheet />
          <Dialogs />
        </Suspense>
      </PanelBoundary>
      <Toast />
    </div>
  );
}

// The editor (loaded by main.tsx once the boot requests are on their way): boot (catalog, journal
// restore, deep link), and render the shell.
import { useEffect, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { boot } from './boot.ts';
import { startUrlSync } from './files/urlSync.ts';
import { openRunFromLocation } from './run/run.actions.ts';
import { editorStore } from './store/editor.store.ts';

/**
 * How long the first render waits for boot. The boot requests were sent before this chunk loaded, so
 * their answers are usually in by now and boot opens the deep-linked graph within a few ms: the
 * first render is then the graph's, instead of an empty shell and an empty canvas rendered, thrown
 * away and rendered again with the graph. A slow server still gets the shell after this wait.
 */
const FIRST_RENDER_WAIT_MS = 300;

/** Resolves once React has committed the editor (the canvas included) for the first time. */
function FirstCommit({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useEffect(onCommit, [onCommit]);
  return children;
}

const booted = boot();
const waited = new Promise((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MS));
const rendered = new Promise<void>((resolve) => {
  void Promise.race([booted.catch(() => {}), waited]).then(() =>
    createRoot(document.getElementById('root')!).render(
      <FirstCommit onCommit={resolve}>
        <App />
      </FirstCommit>,
    ),
  );
});
// `html[data-ready]` says the editor takes input: boot is done (catalog, tabs, deep link) AND the
// editor is on screen. Set at the end of boot alone, it could come before React had rendered
// anything (boot usually wins the race above), and a first drag from the library then met a page
// still mounting its canvas.
void Promise.all([booted, rendered]).then(() =>
  requestAnimationFrame(() => {
    document.documentElement.dataset.ready = 'true';
  }),
);
// The URL follows the active tab only after its own deep links (?graph, ?run) were honoured.
void booted.then(() => openRunFromLocation()).then(() => startUrlSync(editorStore));

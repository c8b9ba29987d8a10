// The editor (loaded by main.tsx once the boot requests are on their way): boot (catalog, journal
// restore, deep link), and render the shell.
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

const booted = boot();
const waited = new Promise((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MS));
void Promise.race([booted.catch(() => {}), waited]).then(() =>
  createRoot(document.getElementById('root')!).render(<App />),
);
// The URL follows the active tab only after its own deep links (?graph, ?run) were honoured.
void booted.then(() => openRunFromLocation()).then(() => startUrlSync(editorStore));

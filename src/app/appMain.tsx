// The editor (loaded by main.tsx once the boot requests are on their way): render the shell, then
// boot (catalog, journal restore, deep link).
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { boot } from './boot.ts';
import { startUrlSync } from './files/urlSync.ts';
import { openRunFromLocation } from './run/run.actions.ts';
import { editorStore } from './store/editor.store.ts';

createRoot(document.getElementById('root')!).render(<App />);
// The URL follows the active tab only after its own deep links (?graph, ?run) were honoured.
void boot()
  .then(() => openRunFromLocation())
  .then(() => startUrlSync(editorStore));

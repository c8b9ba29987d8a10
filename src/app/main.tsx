// App entry: render the editor shell, then boot (catalog, journal restore, deep link).
import './cspSafe.ts';
import { createRoot } from 'react-dom/client';
import './styles.css';
import { App } from './App.tsx';
import { boot } from './boot.ts';
import { startUrlSync } from './files/urlSync.ts';
import { openRunFromLocation } from './run/run.actions.ts';
import { editorStore } from './store/editor.store.ts';
import { captureToken } from './api/token.ts';

// First: a `?token=` from the URL `statewire serve` printed is kept and removed from the address bar.
captureToken();
createRoot(document.getElementById('root')!).render(<App />);
// The URL follows the active tab only after its own deep links (?graph, ?run) were honoured.
void boot()
  .then(() => openRunFromLocation())
  .then(() => startUrlSync(editorStore));

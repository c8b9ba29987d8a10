// App entry: render the editor shell, then boot (catalog, journal restore, deep link).
import { createRoot } from 'react-dom/client';
import './styles.css';
import { App } from './App.tsx';
import { boot } from './boot.ts';
import { openRunFromLocation } from './run/run.actions.ts';

createRoot(document.getElementById('root')!).render(<App />);
void boot().then(() => openRunFromLocation());

// App entry (placeholder until the editor lands).
import { createRoot } from 'react-dom/client';
import './styles.css';

createRoot(document.getElementById('root')!).render(<div className="p-4 text-sm">Statewire</div>);

// App entry, small on purpose: it keeps the access token and sends the boot requests (the deep
// link's graph, the catalog, the services report: bootRequests.ts), then loads the editor. The
// editor's bundle is a chunk of its own, so those requests travel while it downloads and starts.
// zod's CSP setting before any module (of any chunk) could parse with zod: the editor's chunks
// share modules that parse at load time, and rollup may run those before appMain.tsx's own code.
import './cspSafe.ts';
// The page's styles stay in the entry (a <link> in the head), so the first paint is already dark.
import './styles.css';
import { captureToken } from './api/token.ts';
import { startBootRequests } from './bootRequests.ts';

// First: a `?token=` from the URL `statewire serve` printed is kept and removed from the address bar,
// so the boot requests already carry it.
captureToken();
startBootRequests();
void import('./appMain.tsx');

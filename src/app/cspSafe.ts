// The app runs under a CSP without 'unsafe-eval' (src/server/http/securityHeaders.ts). zod 4 probes
// `new Function('')` once to decide whether to JIT-compile object parsers; under the CSP the probe
// fails (zod falls back) but Chromium still reports a violation. `jitless` skips the probe. Imported
// first by main.tsx (the entry chunk), before any module could parse with zod.
import { z } from 'zod';

z.config({ jitless: true });

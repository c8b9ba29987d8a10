#!/usr/bin/env node
// Entry point of the `statewire` CLI. TypeScript sources run directly through tsx's loader, so
// `npx statewire …` works right after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/server/cli/main.ts');

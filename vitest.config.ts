import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'vectors/**/*.test.ts'],
    environment: 'node',
    // UI tests opt into happy-dom with a `// @vitest-environment happy-dom` comment.
    setupFiles: ['./src/test.setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});

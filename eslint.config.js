// ESLint flat config. The layer boundaries of docs/architecture.md are enforced here with
// no-restricted-imports, so a wrong import fails `npm test` rather than a review.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { serverFloors } from './eslint/serverFloors.js';

const layer = (name) => ({
  group: [`**/${name}/**`, `**/${name}`],
  message: `this layer may not import from src/${name}`,
});
const nodeBuiltins = { group: ['node:*'], message: 'no Node APIs in this layer' };
const pkg = (name, why) => ({ group: [name, `${name}/*`], message: why });
/** One layer's import boundary: `files` may not import anything matching `patterns`. */
const boundary = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});
// Every part of the app: no engine, no server, no Node; the two vendor seams are owned by one folder each.
const appBase = [layer('engine'), layer('server'), nodeBuiltins];
const onlyCanvasFlow = pkg('@xyflow/react', 'only src/app/canvas imports @xyflow/react');
const onlyLiveSocket = pkg('socket.io-client', 'only src/app/live imports socket.io-client');
// The floors of src/server, lowest first: a folder imports its own folder and lower floors only
// (eslint/serverFloors.js; `node scripts/server-folder-graph.mjs` prints the real graph).
const SERVER_FLOORS = [
  ['db', 'layout'],
  ['errors', 'ports'],
  ['workspace', 'plugins', 'socket'],
  ['runs', 'services'],
  ['batch', 'replay'],
  ['distributed'],
  ['http'],
  ['.'],
  ['cli'],
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'public/**',
      'workspace/.statewire/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  boundary(
    ['src/domain/**/*.ts'],
    [
      layer('engine'),
      layer('server'),
      layer('app'),
      nodeBuiltins,
      pkg('react', 'domain is framework-free'),
      pkg('@xyflow/react', 'domain is framework-free'),
      pkg('socket.io', 'domain does no I/O'),
      pkg('socket.io-client', 'domain does no I/O'),
      pkg('better-sqlite3', 'domain does no I/O'),
      pkg('fastify', 'domain does no I/O'),
    ],
  ),
  boundary(
    ['src/engine/**/*.ts'],
    [
      layer('server'),
      layer('app'),
      pkg('react', 'engine is headless'),
      pkg('@xyflow/react', 'engine is headless'),
      pkg('socket.io', 'the server owns sockets'),
      pkg('socket.io-client', 'the server owns sockets'),
      pkg('better-sqlite3', 'the server owns the database'),
      pkg('fastify', 'the server owns HTTP'),
    ],
  ),
  boundary(
    ['src/server/**/*.ts'],
    [layer('app'), pkg('react', 'server has no UI'), pkg('@xyflow/react', 'server has no UI')],
  ),
  {
    files: ['src/server/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.testutil.ts', '**/*.suite.ts', 'src/server/test/**'],
    plugins: { local: { rules: { 'server-floors': serverFloors } } },
    rules: { 'local/server-floors': ['error', { root: 'src/server', floors: SERVER_FLOORS }] },
  },
  boundary(
    ['src/app/**/*.{ts,tsx}'],
    [...appBase, onlyCanvasFlow, onlyLiveSocket],
    ['src/app/canvas/**', 'src/app/live/**'],
  ),
  boundary(['src/app/canvas/**/*.{ts,tsx}'], [...appBase, onlyLiveSocket]),
  boundary(['src/app/live/**/*.{ts,tsx}'], [...appBase, onlyCanvasFlow]),
);

// ESLint flat config. The layer boundaries of docs/architecture.md are enforced here with
// no-restricted-imports, so a wrong import fails `npm test` rather than a review.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const layer = (name) => ({
  group: [`**/${name}/**`, `**/${name}`],
  message: `this layer may not import from src/${name}`,
});
const nodeBuiltins = { group: ['node:*'], message: 'no Node APIs in this layer' };
const pkg = (name, why) => ({ group: [name, `${name}/*`], message: why });

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
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
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
        },
      ],
    },
  },
  {
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            layer('server'),
            layer('app'),
            pkg('react', 'engine is headless'),
            pkg('@xyflow/react', 'engine is headless'),
            pkg('socket.io', 'the server owns sockets'),
            pkg('socket.io-client', 'the server owns sockets'),
            pkg('better-sqlite3', 'the server owns the database'),
            pkg('fastify', 'the server owns HTTP'),
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            layer('app'),
            pkg('react', 'server has no UI'),
            pkg('@xyflow/react', 'server has no UI'),
          ],
        },
      ],
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    ignores: ['src/app/canvas/**', 'src/app/live/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            layer('engine'),
            layer('server'),
            nodeBuiltins,
            pkg('@xyflow/react', 'only src/app/canvas imports @xyflow/react'),
            pkg('socket.io-client', 'only src/app/live imports socket.io-client'),
          ],
        },
      ],
    },
  },
  {
    files: ['src/app/canvas/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            layer('engine'),
            layer('server'),
            nodeBuiltins,
            pkg('socket.io-client', 'only src/app/live imports socket.io-client'),
          ],
        },
      ],
    },
  },
  {
    files: ['src/app/live/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            layer('engine'),
            layer('server'),
            nodeBuiltins,
            pkg('@xyflow/react', 'only src/app/canvas imports @xyflow/react'),
          ],
        },
      ],
    },
  },
);

// ESLint flat config (kept in .ci/ so the top level stays as the design card says). Run from the repo
// root: `eslint -c .ci/eslint.config.js .` — file patterns are relative to the working directory.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const importDirection = (blocked, why) => ({
  'no-restricted-imports': [
    'error',
    { patterns: blocked.map((group) => ({ group: [group], message: why })) },
  ],
});

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'src/app/route-tree.gen.ts', 'test-results/**', 'bench/results/**', 'locales/**', 'dev-dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
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
  // Tests read loosely typed JSON envelopes; `any` there is a reading aid, not a hole in the product.
  {
    files: ['tests/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // Import direction (STYLE.md): shared imports neither app nor server; app and server never import each other.
  {
    files: ['src/shared/**/*.ts'],
    rules: importDirection(['**/app/**', '**/server/**', 'node:*', 'react', 'react-dom', 'hono', 'kysely', 'dexie'], 'src/shared runs in browser and Node: it imports neither app nor server, nor platform modules.'),
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    rules: importDirection(['**/server/**', 'node:*', 'hono', 'hono/*', 'kysely', 'better-sqlite3'], 'The app must not import server code.'),
  },
  {
    files: ['src/server/**/*.ts'],
    rules: importDirection(['**/app/**', 'react', 'react-dom', 'dexie'], 'The server must not import app code.'),
  },
);

// ESLint flat config (kept in .ci/ so the top level stays as the design card says). Run from the repo
// root: `eslint -c .ci/eslint.config.js .` — file patterns are relative to the working directory.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const root = new URL('..', import.meta.url).pathname;

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
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      // Type-aware: every file is read with its types. Files outside tsconfig.json (the build scripts, this
      // file, the lighthouse runner, the boot shell) get the default project, which takes tsconfig.json's
      // options; each pattern here matches a handful of files (typescript-eslint caps the default project).
      parserOptions: {
        projectService: {
          allowDefaultProject: ['scripts/*.mjs', 'bench/*.mjs', 'tools/lighthouse/*.mjs', '.ci/*.js', '.dependency-cruiser.cjs', 'public/*.js'],
          // The plain JavaScript files outside tsconfig (build scripts, the service worker's own parts) are
          // few and small; the default cap of 8 is typescript-eslint's guard against a whole tree missing.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 16,
        },
        tsconfigRootDir: root,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
      // The type-checked rules taken (docs/decisions/0029-type-aware-lint.md): the promise rules, since the
      // money paths are async, and what may be thrown or rejected. Not the whole recommendedTypeChecked set:
      // its no-unsafe-* rules flag the tests' deliberately loose JSON reads by the hundred.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'error',
      // A caught value of unknown type passed on (rethrown, or a queued job's failure handed to its caller)
      // is whatever was thrown; the rules are for values made here.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/only-throw-error': ['error', { allowRethrowing: true }],
      'require-await': 'off',
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
  // A fake of an async interface (`begin: async () => undefined`) is clearest written async without an await;
  // no-floating-promises still catches a missing await in a test.
  {
    files: ['tests/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/require-await': 'off' },
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

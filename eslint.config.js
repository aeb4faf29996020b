// ESLint flat config: typescript-eslint with type information, plus react-hooks.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // Fixture servers are plain JavaScript run by node as they are (test/fixtures/mcp/).
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'eslint.config.js', 'test/fixtures/**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: {
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-empty': ['error', { allowEmptyCatch: false }],
      // `let x; ... x = value` where closures made earlier read x: correct, and cannot be const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Say what a missing value means instead: a guard, `??` with a real default, for-of over the items, or
      // itemAt()/group() from src/util/invariant.ts for an index or capture group the code has made sure of.
      '@typescript-eslint/no-non-null-assertion': 'error',
      // A terminal program: matching ESC and other control characters is its job.
      'no-control-regex': 'off',
      // Engine objects are closures from factories, not classes: passing `store.subscribe` is safe.
      '@typescript-eslint/unbound-method': 'off',
      // An async function may satisfy a Promise-returning contract without awaiting.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-empty-function': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    // The web page's modules run in the browser as they are (no build step, no TypeScript project).
    files: ['components/web/static/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      sourceType: 'module',
      parserOptions: { project: null, projectService: false },
      globals: { window: 'readonly', document: 'readonly', location: 'readonly', localStorage: 'readonly', sessionStorage: 'readonly', fetch: 'readonly', EventSource: 'readonly', URLSearchParams: 'readonly', Node: 'readonly', requestAnimationFrame: 'readonly', matchMedia: 'readonly', FileReader: 'readonly', setTimeout: 'readonly', queueMicrotask: 'readonly', WeakMap: 'readonly', Map: 'readonly', Set: 'readonly' },
    },
  },
  {
    files: ['test/**/*.ts', 'test/**/*.tsx'],
    rules: {
      // Tests assert what they have just checked, and read JSON the code under test wrote.
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
);

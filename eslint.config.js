// Lint (npm run lint = eslint + knip). Syntax-level typescript-eslint rules, plus two type-aware ones on
// the API: since its services await the database (issue 29), a promise left unawaited is a lost write
// or a statement outside its transaction, and the type checker alone does not see it.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'api/drizzle/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Tests and a few fixtures read untyped JSON bodies.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['api/src/**/*.ts'],
    languageOptions: { parserOptions: { project: ['api/tsconfig.json'], tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: true, attributes: false } }],
      // `return promise` inside try skips its catch and finally's order: a UNIQUE violation became a 500.
      '@typescript-eslint/return-await': ['error', 'error-handling-correctness-only'],
    },
  },
  {
    files: ['admin/src/**/*.{ts,tsx}', 'portal/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // One data path in the admin (issue 27): screens read and write through Refine's data hooks, and
    // ask permissions through useCan; only the providers talk HTTP or read the permissions answer.
    files: ['admin/src/**/*.{ts,tsx}'],
    ignores: ['admin/src/providers/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='fetch']",
          message: 'Use a Refine data hook (useCustom, useCustomMutation, …) or providers/download.',
        },
        { selector: "NewExpression[callee.name='XMLHttpRequest']", message: 'Use a Refine data hook.' },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@tanstack/react-query',
              importNames: ['useQuery', 'useQueries', 'useInfiniteQuery', 'useSuspenseQuery', 'useMutation'],
              message: "Use Refine's data hooks (useList, useOne, useCustom, useCustomMutation, …).",
            },
            { name: 'axios', message: 'Only the data provider uses axios.' },
            {
              name: '@doanhoi/shared',
              importNames: [
                'hasPermission',
                'hasAnyPermission',
                'hasAllPermissions',
                'holdsAnywhere',
                'effectivePermissions',
                'permissionScope',
              ],
              message: 'Ask permissions through useCan / CanAccess (components/permission-guard/use-allowed).',
            },
          ],
          patterns: [
            {
              group: ['**/providers/http'],
              importNames: ['apiRequest', 'authFetch'],
              message: 'Use a Refine data hook, or providers/download for a file.',
            },
            {
              group: ['@doanhoi/shared/permissions/check', '**/providers/permissions', '**/providers/row-rights'],
              message: 'Ask permissions through useCan / CanAccess (components/permission-guard/use-allowed).',
            },
          ],
        },
      ],
    },
  },
);

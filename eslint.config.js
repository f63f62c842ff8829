// One linter for the page, the CLI and the tests: typescript-eslint's type-checked recommended rules.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'out/',
      'site/',
      'test-results/',
      'playwright-report/',
      'results/',
      'public/',
      // The declarations npm pack writes (prepack), as the tarball's end-to-end test runs it.
      'types/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Fields are dropped from a copy by naming them beside a rest element: { _rev: _ignored, ...rest }.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    // Adapter and case methods are async by contract: a synchronous store's or step's throw must be a rejection.
    files: ['src/adapters/**', 'suites/**', 'tests/unit/**'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    // vitest types its asymmetric matchers (expect.stringMatching, expect.any, ...) as any.
    files: ['tests/unit/**'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    // These tests break results documents field by field on purpose, so they hold them as untyped JSON.
    files: [
      'tests/unit/core/results/results.test.ts',
      'tests/unit/core/schema/results-schema.test.ts',
    ],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // .cjs files are CommonJS (require, module, exports), not ES modules.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
);

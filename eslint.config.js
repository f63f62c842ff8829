// One linter for the page, the CLI and the tests: typescript-eslint's type-checked recommended rules.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'out/',
      'test-results/',
      'playwright-report/',
      'results/',
      'public/',
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
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // .cjs files are CommonJS (require, module, exports), not ES modules.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
);

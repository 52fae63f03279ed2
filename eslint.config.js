import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'bench/.peer/',
      'coverage/',
      'test/dropin/reference/',
      'vendor/',
      '.tmp/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The session viewer's page script runs in the browser.
    files: ['src/viewer/assets/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: {
        window: 'readonly',
        document: 'readonly',
        location: 'readonly',
        fetch: 'readonly',
        EventSource: 'readonly',
      },
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**', 'src/**/*.test.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    // Small files, one concept each (docs/architecture.md). The layer and cycle check is scripts/check-layers.ts.
    files: ['src/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
);

import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'bench/.peer/', 'coverage/'] },
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
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**', 'src/**/*.test.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['src/model/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../agent/*',
                '../loop/*',
                '../tools/*',
                '../sessions/*',
                '../policy/*',
                '../skills/*',
                '../cli/*',
                '../workspace/*',
              ],
              message: 'model/ is a port layer: it must not import from the layers above it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: [
      'src/loop/**/*.ts',
      'src/agent/**/*.ts',
      'src/tools/**/*.ts',
      'src/workspace/**/*.ts',
      'src/sessions/**/*.ts',
    ],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../cli/*', '../testing/*'],
              message: 'The session layer must not import adapters (cli) or the testing kit.',
            },
          ],
        },
      ],
    },
  },
);

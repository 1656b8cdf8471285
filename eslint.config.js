// Lint: typescript-eslint's recommended rules over the TypeScript tree (`npm run lint` also runs dependency-cruiser
// for the layer rules and Prettier's format check).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'web/dist/**', 'coverage/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // a variable assigned once but read by a closure before that (the host's late-bound durable API) stays `let`
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // tests, their helpers and benchmarks poke at internals: loose JSON bodies, regexes over table output
    files: ['**/*.test.ts', '**/*.test-helpers.ts', '**/*.bench.ts', '**/__fixtures__/**', '**/testing/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-this-alias': 'off',
      'no-regex-spaces': 'off',
      'no-useless-escape': 'off',
      'no-useless-assignment': 'off',
    },
  },
);

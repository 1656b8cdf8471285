import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'lib/**/*.test.ts',
      'functions/**/*.test.ts',
      'bench/**/*.test.ts',
      'scripts/**/*.test.ts',
      'examples/**/*.test.ts',
      'infra/**/*.test.ts',
    ],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // in CI also write a JSON report, from which .ci/run prints a plain "N passed, N failed" closing line
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.vitest-results.json' }]] : ['default'],
  },
});

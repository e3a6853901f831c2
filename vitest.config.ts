import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // In CI, also write a JSON report so .ci/run can print one plain `N passed, N failed` line.
    ...(process.env.CI ? { reporters: ['default', 'json'], outputFile: { json: 'artifacts/test-results.json' } } : {}),
  },
});

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Every test runs in node. View component tests, all against the real engine service, get a DOM by
    // importing tests/renderer/page.ts first (a happy-dom page in the node environment, so the engine's
    // modules stay transformed for Node).
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on a 2-core CI machine, so every file
    // waited for the one before. The model tests use one or two llama.cpp threads and most files are
    // light, so two files at a time finish the suite sooner even on two cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Fails the run at once, with a hint, when a test needs something this machine lacks (Chromium, …)
    // and its opt-out variable is not set: tests/requirements.ts.
    globalSetup: ['tests/requirements-setup.ts'],
    // The last lines say how many tests an opt-out variable skipped. In CI, also write a JSON report so
    // .ci/run can print one plain `N passed, N failed` line.
    // The fault suite (tests/faults/) ends with one line of figures: faults injected, runs recovered,
    // records lost, false successes.
    reporters: ['default', './tests/requirements-reporter.ts', './tests/faults/fault-reporter.ts', ...(process.env.CI ? ['json'] : [])],
    ...(process.env.CI ? { outputFile: { json: 'artifacts/test-results.json' } } : {}),
  },
});

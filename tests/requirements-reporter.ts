// A vitest reporter that closes the run with one line per opted-out requirement (tests/requirements.ts):
// how many tests did not run and which variable skipped them, e.g.
// "tests: 16 end-to-end tests did not run (LOTS_SKIP_E2E=1)".
import type { Reporter, TestCase, TestModule, TestSuite } from 'vitest/node';
import { isRequirement, optedOut, requirements, type RequirementName } from './requirements';

export default class RequirementsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped = new Map<RequirementName, number>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const name = requirementOf(test);
        if (name && optedOut(name) && test.result().state === 'skipped') skipped.set(name, (skipped.get(name) ?? 0) + 1);
      }
    }
    for (const [name, count] of skipped) {
      const r = requirements[name];
      process.stdout.write(`tests: ${count} ${r.tests} did not run (${r.skipEnvVar}=${process.env[r.skipEnvVar]})\n`);
    }
  }
}

function requirementOf(test: TestCase): RequirementName | undefined {
  for (let t: TestCase | TestSuite | TestModule = test; t.type !== 'module'; t = t.parent) {
    const name = t.meta().requirement;
    if (name && isRequirement(name)) return name;
  }
  return undefined;
}

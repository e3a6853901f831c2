// A vitest reporter that closes a run that included the fault suite (tests/faults/) with its one line of
// figures, e.g. "fault suite: 214 faults injected, 214 runs recovered, 0 records lost, 0 duplicated,
// 0 false successes". The tests append their figures to a file (fault-tally.ts) this reporter creates
// before any test runs and names in the environment the test workers inherit.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { FAULT_TALLY_ENV, sumFaults } from './fault-tally';

export default class FaultReporter implements Reporter {
  private dir: string | undefined;

  onInit(): void {
    this.dir = mkdtempSync(join(tmpdir(), 'lots-fault-tally-'));
    const file = join(this.dir, 'tally.jsonl');
    writeFileSync(file, '');
    process.env[FAULT_TALLY_ENV] = file;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (!this.dir) return;
    const ran = testModules.some((m) => /[\\/]tests[\\/]faults[\\/]/.test(m.moduleId));
    const t = sumFaults(readFileSync(join(this.dir, 'tally.jsonl'), 'utf8').split('\n'));
    rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
    if (!ran) return;
    process.stdout.write(
      `fault suite: ${t.injected} faults injected, ${t.recovered} runs recovered, ${t.lost} records lost, ` +
        `${t.duplicated} duplicated, ${t.falseSuccesses} false successes\n`,
    );
  }
}

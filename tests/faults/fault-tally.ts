// The fault suite's figures: each test that injects faults records what it injected and what it found
// (one JSON line per call, appended to the file the fault reporter names in LOTS_FAULT_TALLY); the
// reporter (tests/faults/fault-reporter.ts) adds them up and prints one line at the end of the run.
import { appendFileSync } from 'node:fs';

export const FAULT_TALLY_ENV = 'LOTS_FAULT_TALLY';

export interface FaultFigures {
  /** Faults injected (kills, failed writes, hostile frames, concurrent writers). */
  injected: number;
  /** Runs after which the project was whole again: every committed record there once, nothing partial. */
  recovered: number;
  /** Records that had been reported as committed and were not in the project afterwards. */
  lost: number;
  /** Records present more than once afterwards. */
  duplicated?: number;
  /** Runs that reported success (exit 0, job "done") for work that was not all stored. */
  falseSuccesses: number;
}

export function recordFaults(figures: FaultFigures): void {
  const path = process.env[FAULT_TALLY_ENV];
  if (!path) return; // run without the fault reporter (a single file by hand): the test's own assertions still hold
  appendFileSync(path, JSON.stringify({ duplicated: 0, ...figures }) + '\n');
}

export function sumFaults(lines: readonly string[]): Required<FaultFigures> & { entries: number } {
  const total = { injected: 0, recovered: 0, lost: 0, duplicated: 0, falseSuccesses: 0, entries: 0 };
  for (const line of lines) {
    if (!line.trim()) continue;
    const f = JSON.parse(line) as Required<FaultFigures>;
    total.injected += f.injected;
    total.recovered += f.recovered;
    total.lost += f.lost;
    total.duplicated += f.duplicated;
    total.falseSuccesses += f.falseSuccesses;
    total.entries++;
  }
  return total;
}

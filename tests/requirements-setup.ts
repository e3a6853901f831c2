// vitest globalSetup: before any test runs, check the requirements (tests/requirements.ts) that the
// selected test files ask for; a missing one that is not opted out of ends the run with one line each.
// `npm test` also runs this file on its own first (`tsx tests/requirements-setup.ts`: every
// requirement), so it fails before spending a minute on type-checking and lint.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { TestProject } from 'vitest/node';
import { missingLine, optedOut, requirements, requirementsIn, type RequirementName } from './requirements';

const ALL = Object.keys(requirements) as RequirementName[];

export default function setup(project: TestProject): void {
  failIfMissing(neededBy(project));
}

function failIfMissing(names: readonly RequirementName[]): void {
  const missing = names.filter((name) => !optedOut(name) && requirements[name].missing() !== undefined);
  if (missing.length === 0) return;
  for (const name of missing) process.stderr.write(`\n${missingLine(name)}\n`);
  // Exit rather than throw: vitest would wrap an error in "Unhandled Error" and "No test files found".
  process.exit(1);
}

/** The requirements of the files this run will execute; every requirement when they cannot be told. */
function neededBy(project: TestProject): readonly RequirementName[] {
  let files: string[] = [];
  try {
    files = project.vitest.state.getPaths();
  } catch {
    // vitest's internals moved: check everything
  }
  if (files.length === 0) return ALL;
  const names = new Set<RequirementName>();
  for (const file of files) {
    try {
      for (const name of requirementsIn(readFileSync(file, 'utf8'))) names.add(name);
    } catch {
      // a file that vanished does not need anything
    }
  }
  return [...names];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) failIfMissing(ALL);

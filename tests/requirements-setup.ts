// vitest globalSetup: before any test runs, check the requirements (tests/requirements.ts) that the
// selected test files ask for; a missing one that is not opted out of ends the run with one line each.
// `npm test` also runs this file on its own first (`tsx tests/requirements-setup.ts`: every
// requirement): there it first provisions each missing one that is not opted out of (pulls the model,
// builds the server, installs Chromium), a progress line each, and stops with the one command to run
// where this machine cannot; so it fails before spending a minute on type-checking and lint.
import { spawnSync } from 'node:child_process';
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

/** Get what is missing, one requirement after another; the first that cannot be had ends the run. */
function provisionMissing(names: readonly RequirementName[]): void {
  for (const name of names) {
    if (optedOut(name) || requirements[name].missing() === undefined) continue;
    const { provision } = requirements[name];
    const cannot = provision.cannot();
    if (cannot !== undefined) {
      process.stderr.write(`\n${missingLine(name)}\ntests: npm test cannot get it by itself here: ${cannot}.\n`);
      process.exit(1);
    }
    const started = Date.now();
    process.stdout.write(`tests: ${provision.doing}\n`);
    for (const [command, ...args] of provision.commands()) {
      const run = spawnSync(command!, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
      if (run.status !== 0) {
        const how = run.error ? run.error.message : run.signal ? `killed by ${run.signal}` : `exit code ${run.status}`;
        process.stderr.write(`\ntests: \`${[command, ...args].join(' ')}\` failed (${how}).\n${missingLine(name)}\n`);
        process.exit(1);
      }
    }
    process.stdout.write(`tests: ${name} ready (${Math.round((Date.now() - started) / 1000)} s)\n`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  provisionMissing(ALL);
  failIfMissing(ALL);
}

// describe() for tests that need something from the machine (tests/requirements.ts): runs them when it
// is there; skips them, marked for the closing summary, when its opt-out variable is set; otherwise
// fails with the requirement's hint (the globalSetup normally stops the run before that).
import { describe, it } from 'vitest';
import { missingLine, optedOut, requirements, type RequirementName } from './requirements';

declare module 'vitest' {
  interface TaskMeta {
    /** Set on suites declared with describeRequiring: the requirement they need. */
    requirement?: string;
  }
}

export function describeRequiring(name: RequirementName, title: string, fn: () => void): void {
  const meta = { requirement: name };
  if (optedOut(name)) describe(title, { skip: true, meta }, fn);
  else if (requirements[name].missing() !== undefined) {
    describe(title, { meta }, () => {
      it(`needs ${name}`, () => {
        throw new Error(missingLine(name));
      });
    });
  } else describe(title, { meta }, fn);
}

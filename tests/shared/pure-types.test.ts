// shared/ is pure at the compiler too: shared/tsconfig.json (run by `npm run typecheck`) has neither the DOM's
// nor Node's types, only the web-platform globals both runtimes share (build/types/shared-platform.d.ts).
// These tests compile a probe file as if it were in shared/ and prove the check bites.
import { describe, expect, it } from 'vitest';
import { probeDiagnostics } from '../probe-compile';

/** The probe and the platform declarations alone: the globals in scope are what the config allows. */
const diagnosticsFor = (code: string): string[] => probeDiagnostics('shared/tsconfig.json', 'shared/__probe__.ts', code, ['build/types/shared-platform.d.ts']);

describe('shared/tsconfig.json', () => {
  it('refuses Node and DOM globals in shared/', () => {
    expect(diagnosticsFor('export const a = process.env.HOME;')).toEqual([expect.stringMatching(/Cannot find name 'process'/)]);
    expect(diagnosticsFor('export const a = document.title;')).toEqual([expect.stringMatching(/Cannot find name 'document'/)]);
    expect(diagnosticsFor('export const a = Buffer.from("x");')).toEqual([expect.stringMatching(/Cannot find name 'Buffer'/)]);
  });
  it('allows the web-platform globals both runtimes have', () => {
    expect(
      diagnosticsFor('export const a = [new URL("http://x/").host, performance.now(), btoa("x")];\nexport function f(s: AbortSignal) { s.throwIfAborted(); }'),
    ).toEqual([]);
  });
});

// shared/ is pure at the compiler too: shared/tsconfig.json (run by `npm run typecheck`) has neither the DOM's
// nor Node's types, only the web-platform globals both runtimes share (build/types/shared-platform.d.ts).
// These tests compile a probe file as if it were in shared/ and prove the check bites.
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function diagnosticsFor(code: string): string[] {
  const configPath = path.join(root, 'shared/tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const probe = path.join(root, 'shared/__probe__.ts');
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) =>
    path.resolve(fileName) === probe ? ts.createSourceFile(fileName, code, languageVersion) : getSourceFile(fileName, languageVersion, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => path.resolve(fileName) === probe || fileExists(fileName);
  // The probe and the platform declarations alone: the globals in scope are what the config allows.
  const program = ts.createProgram({ rootNames: [probe, path.join(root, 'build/types/shared-platform.d.ts')], options: config.options, host });
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(probe)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

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

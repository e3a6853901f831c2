// Compiling a probe file as if it stood at `probe` (a path inside the repository) under a tsconfig, with
// nothing written to disk: the tests that prove a compiler-level rule bites (shared/ is pure, views read
// only) use it. Returns the probe's own diagnostics, as messages.
import path from 'node:path';
import ts from 'typescript';

export const repoRoot = path.resolve(import.meta.dirname, '..');

/** `probe` and `config` are relative to the repository; `alsoRoot` are more root files (declarations). */
export function probeDiagnostics(config: string, probe: string, code: string, alsoRoot: readonly string[] = []): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(repoRoot, config), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const probePath = path.join(repoRoot, probe);
  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) =>
    path.resolve(fileName) === probePath ? ts.createSourceFile(fileName, code, languageVersion) : getSourceFile(fileName, languageVersion, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => path.resolve(fileName) === probePath || fileExists(fileName);
  const program = ts.createProgram({ rootNames: [probePath, ...alsoRoot.map((f) => path.join(repoRoot, f))], options: parsed.options, host });
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(probePath)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

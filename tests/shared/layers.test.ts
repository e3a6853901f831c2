// The layering rules of CONVENTIONS.md are enforced by eslint; these tests prove the rules bite.
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const eslint = new ESLint();

async function errorsFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.severity === 2).map((m) => m.message);
}

describe('layer rules', () => {
  it('shared/ may not import Node, electron, React or other layers', async () => {
    expect(await errorsFor('shared/lots/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;")).toEqual([expect.stringMatching(/shared\/ is pure/)]);
    expect(await errorsFor('shared/lots/x.ts', "import { app } from 'electron';\nexport const a = app;")).not.toEqual([]);
    expect(await errorsFor('shared/lots/x.ts', "import { ProjectStore } from '../../electron/engine/store';\nexport const a = ProjectStore;")).not.toEqual([]);
    expect(await errorsFor('shared/lots/x.ts', 'export const a = document.title;')).not.toEqual([]);
    expect(await errorsFor('shared/lots/x.ts', "import { z } from 'zod';\nimport { TraceSchema } from '../trace/schema';\nexport const a = [z, TraceSchema];")).toEqual([]);
  });

  it('the engine may not import electron', async () => {
    expect(await errorsFor('electron/engine/store/x.ts', "import { app } from 'electron';\nexport const a = app;")).toEqual([expect.stringMatching(/never import electron/)]);
    expect(await errorsFor('electron/engine/store/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;")).toEqual([]);
  });

  it('the renderer may not import Node or the engine', async () => {
    expect(await errorsFor('renderer/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;")).not.toEqual([]);
    expect(await errorsFor('renderer/x.ts', "import { ProjectStore } from '../electron/engine/store';\nexport const a = ProjectStore;")).not.toEqual([]);
  });

  it('the whole tree passes the rules today', async () => {
    const results = await eslint.lintFiles(['shared', 'electron/engine']);
    expect(results.flatMap((r) => r.messages.filter((m) => m.severity === 2).map((m) => `${r.filePath}: ${m.message}`))).toEqual([]);
  });
});

// The layering rules of docs/CONVENTIONS.md §1 are enforced by eslint; these tests prove the rules bite.
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

// The project's config without the type-checked rules: these rules need no types, the snippets below are
// files that are not in the TypeScript project (or stand in for one), and `npm run lint` runs the type-checked ones.
// (Without those rules, their suppressions in the tree are unused: not reported here.)
const eslint = new ESLint({ overrideConfig: [tseslint.configs.disableTypeChecked, { linterOptions: { reportUnusedDisableDirectives: 'off' } }] });

async function errorsFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.severity === 2).map((m) => m.message);
}

describe('layer rules', () => {
  it('shared/ may not import Node, electron, React or other layers', async () => {
    expect(await errorsFor('shared/lots/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;")).toEqual([
      expect.stringMatching(/shared\/ is pure/),
    ]);
    expect(await errorsFor('shared/lots/x.ts', "import { app } from 'electron';\nexport const a = app;")).not.toEqual([]);
    expect(await errorsFor('shared/lots/x.ts', "import { ProjectStore } from '../../electron/engine/store';\nexport const a = ProjectStore;")).not.toEqual([]);
    expect(await errorsFor('shared/lots/x.ts', 'export const a = document.title;')).not.toEqual([]);
    expect(
      await errorsFor('shared/lots/x.ts', "import { z } from 'zod';\nimport { TraceSchema } from '../trace/schema';\nexport const a = [z, TraceSchema];"),
    ).toEqual([]);
  });

  it("shared/'s folders import only from the floors below their own", async () => {
    // The ground concepts live on the base floor: errors are imported from there, not reached up for in api/.
    expect(await errorsFor('shared/lots/x.ts', "import { ExpectedError } from '../api/errors';\nexport const a = ExpectedError;")).toEqual([
      expect.stringMatching(/shared\/lots\/ may not import shared\/api\//),
    ]);
    expect(await errorsFor('shared/lots/x.ts', "import { ExpectedError } from '../base/errors';\nexport const a = ExpectedError;")).toEqual([]);
    // selection/ sits below benchmark/: a method never reads the benchmark's families.
    expect(await errorsFor('shared/selection/methods/x.ts', "import { FAMILIES } from '../../benchmark/families';\nexport const a = FAMILIES;")).toEqual([
      expect.stringMatching(/shared\/selection\/ may not import shared\/benchmark\//),
    ]);
    expect(await errorsFor('shared/benchmark/x.ts', "import { bm25 } from '../selection/methods/bm25';\nexport const a = bm25;")).toEqual([]);
    // Folders of one floor do not import each other, and the base imports nothing of shared/.
    expect(await errorsFor('shared/lots/x.ts', "import { detect } from '../importers/detect';\nexport const a = detect;")).not.toEqual([]);
    expect(await errorsFor('shared/base/x.ts', "import { TraceSchema } from '../trace/schema';\nexport const a = TraceSchema;")).not.toEqual([]);
    // The purity rules still hold inside a floor's zone.
    expect(await errorsFor('shared/benchmark/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;")).toEqual([
      expect.stringMatching(/shared\/ is pure/),
    ]);
  });

  it('the engine may not import electron, and its folders import only downward', async () => {
    expect(await errorsFor('electron/engine/store/x.ts', "import { app } from 'electron';\nexport const a = app;")).toEqual([
      expect.stringMatching(/never import electron/),
    ]);
    expect(await errorsFor('electron/engine/store/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;")).toEqual([]);
    // Inside the engine the arrows point down (docs/ARCHITECTURE.md): views and use cases never import each other.
    expect(await errorsFor('electron/engine/views/x.ts', "import { fitProject } from '../usecases/fit';\nexport const a = fitProject;")).toEqual([
      expect.stringMatching(/may not import electron\/engine\/usecases/),
    ]);
    expect(await errorsFor('electron/engine/jobs/x.ts', "import type { StudioService } from '../api/service';\nexport type A = StudioService;")).not.toEqual(
      [],
    );
    expect(
      await errorsFor('electron/engine/scoring/remote/x.ts', "import type { ScoreJobSpec } from '../../jobs/protocol';\nexport type A = ScoreJobSpec;"),
    ).not.toEqual([]);
    expect(
      await errorsFor('electron/engine/views/x.ts', "import { ProjectIndex } from '../read-model/project-index';\nexport const a = ProjectIndex;"),
    ).toEqual([]);
  });

  it('the renderer may not import Node or the engine', async () => {
    expect(await errorsFor('renderer/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;")).not.toEqual([]);
    expect(await errorsFor('renderer/x.ts', "import { ProjectStore } from '../electron/engine/store';\nexport const a = ProjectStore;")).not.toEqual([]);
  });

  it("the renderer's folders import only from the floors below their own", async () => {
    // The store does not reach up into views, components or the shell; of heatmap/ it takes only the pure model.
    expect(await errorsFor('renderer/store/x.ts', "import { SpaceView } from '../views/SpaceView';\nexport const a = SpaceView;")).toEqual([
      expect.stringMatching(/renderer\/store\/ may not import renderer\/views\//),
    ]);
    expect(await errorsFor('renderer/store/x.ts', "import { HeatmapModel } from '../heatmap/model';\nexport const a = HeatmapModel;")).toEqual([]);
    expect(await errorsFor('renderer/store/x.ts', "import { Legend } from '../heatmap/Legend';\nexport const a = Legend;")).toEqual([
      expect.stringMatching(/only the pure model/),
    ]);
    // Views use components and the store, never the shell that places them.
    expect(await errorsFor('renderer/views/X.tsx', "import { VIEW_DEFS } from '../app/Sidebar';\nexport const a = VIEW_DEFS;")).toEqual([
      expect.stringMatching(/renderer\/views\/ may not import renderer\/app\//),
    ]);
    expect(await errorsFor('renderer/views/X.tsx', "import { isTyping } from '../components/keys';\nexport const a = isTyping;")).toEqual([]);
    expect(await errorsFor('renderer/components/X.tsx', "import { SpaceView } from '../views/SpaceView';\nexport const a = SpaceView;")).not.toEqual([]);
    expect(await errorsFor('renderer/api/x.ts', "import { useStudio } from '../store/react';\nexport const a = useStudio;")).not.toEqual([]);
    // The folder zones keep the renderer-wide rules.
    expect(await errorsFor('renderer/views/X.tsx', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;")).not.toEqual([]);
  });

  it('raw ipcMain/ipcRenderer only in the IPC wrapper and the preload', async () => {
    const raw = "import { ipcMain } from 'electron';\nexport const a = ipcMain;";
    expect(await errorsFor('electron/window/x.ts', raw)).toEqual([expect.stringMatching(/Raw ipcMain\/ipcRenderer only in the IPC wrapper/)]);
    expect(await errorsFor('electron/ipc/handlers.ts', raw)).toEqual([]);
    expect(await errorsFor('electron/preload.ts', "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;")).toEqual([]);
    // main.ts hands ipcMain to the wrapper but may not use it itself.
    expect(await errorsFor('electron/main.ts', "import { ipcMain } from 'electron';\nexport const a = ipcMain;")).toEqual([]);
    expect(await errorsFor('electron/main.ts', "import { ipcMain } from 'electron';\nipcMain.removeHandler('x');")).toEqual([
      expect.stringMatching(/Raw ipcMain/),
    ]);
  });

  it('import cycles are reported; type-only imports do not count', async () => {
    // shared/importers/values.ts imports obj.ts: obj.ts importing values.ts back closes a cycle.
    expect(await errorsFor('shared/importers/obj.ts', "import { quote } from './values';\nexport const q = quote;")).toEqual([
      expect.stringMatching(/Dependency cycle/),
    ]);
    expect(await errorsFor('shared/importers/obj.ts', "import type { Obj } from './values';\nexport type O = Obj;")).toEqual([]);
  });

  it('the whole tree passes the rules today', async () => {
    const results = await eslint.lintFiles(['shared', 'electron/engine']);
    expect(results.flatMap((r) => r.messages.filter((m) => m.severity === 2).map((m) => `${r.filePath}: ${m.message}`))).toEqual([]);
  });
});

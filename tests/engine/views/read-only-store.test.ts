// The views and the read model read only, and the compiler says so: they are given a ReadOnlyProjectStore
// (electron/engine/store/read-only.ts), which has the reading methods of ProjectStore and none of its writes.
// A probe file compiled as if it were in electron/engine/views/ proves the type bites; a scan proves no
// view or read-model file takes the full ProjectStore, nor writes a file by another road (the Models view's
// catalog, which remembers recent models and generates the reference model, is a use case: usecases/models.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeDiagnostics, repoRoot as root } from '../../probe-compile';

const diagnosticsFor = (code: string): string[] => probeDiagnostics('tsconfig.json', 'electron/engine/views/__probe__.ts', code);

describe('ReadOnlyProjectStore', () => {
  it('refuses every kind of write from a view, and a full ProjectStore is one', () => {
    const errors = diagnosticsFor(
      [
        "import { ProjectStore, type ReadOnlyProjectStore } from '../store';",
        "import { ProjectIndex } from '../read-model/project-index';",
        "import { buildSummary } from './summary';",
        'export function view(store: ReadOnlyProjectStore): void {',
        "  store.acceptSpace({ task: 't', tools: [], pinned: [], banned: [], rule: { kind: 'manual' }, note: '' });",
        '  store.appendScores([]);',
        "  store.beginImport('x');",
        "  store.logActivity({ kind: 'x', message: 'x' });",
        "  store.warnings.push({ file: 'f', message: 'm' });",
        '  store.lock.release();',
        '}',
        "const full = ProjectStore.open('p');",
        'export const summary = buildSummary(full, new ProjectIndex(full));',
      ].join('\n'),
    );
    expect(errors).toEqual([
      expect.stringMatching(/'acceptSpace' does not exist on type 'ReadOnlyProjectStore'/),
      expect.stringMatching(/'appendScores' does not exist/),
      expect.stringMatching(/'beginImport' does not exist/),
      expect.stringMatching(/'logActivity' does not exist/),
      expect.stringMatching(/'push' does not exist on type 'readonly StoreWarning\[\]'/),
      expect.stringMatching(/'lock' does not exist/),
    ]);
  });

  it('is what every view and read-model file takes: none names the full ProjectStore', () => {
    for (const folder of ['electron/engine/views', 'electron/engine/read-model']) {
      const files = readdirSync(path.join(root, folder)).filter((f) => f.endsWith('.ts'));
      expect(files.length).toBeGreaterThan(5);
      for (const f of files) {
        const text = readFileSync(path.join(root, folder, f), 'utf8');
        expect(text.match(/(?<!ReadOnly)\bProjectStore\b/g), `${folder}/${f}`).toBeNull();
      }
    }
  });

  it('and none writes a file by another road (the store atomic writes, node:fs writes, a generated model)', () => {
    const writes =
      /\b(writeJsonAtomic|writeFileSync|appendFileSync|mkdirSync|renameSync|rmSync|unlinkSync|ensureFixtureModel)\b|store\/atomic|node:fs\/promises/g;
    for (const folder of ['electron/engine/views', 'electron/engine/read-model']) {
      for (const f of readdirSync(path.join(root, folder)).filter((name) => name.endsWith('.ts'))) {
        expect(readFileSync(path.join(root, folder, f), 'utf8').match(writes), `${folder}/${f}`).toBeNull();
      }
    }
  });
});

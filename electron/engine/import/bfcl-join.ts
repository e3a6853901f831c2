// BFCL result files do not carry the menu or the API classes: load the dataset file(s) and the
// `multi_turn_func_doc` folder so the importer can recover both (they are small JSON Lines files).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BFCL_FUNC_DOC_FILES } from '../../../shared/importers/bfcl';
import type { BfclDatasetEntry, BfclJoin } from '../../../shared/importers/types';
import { ExpectedError } from '../../../shared/api/errors';

export function loadBfclJoin(datasetFiles: readonly string[], funcDocDir: string | undefined): BfclJoin {
  const join_: { dataset?: Map<string, BfclDatasetEntry>; functionDocs?: Map<string, unknown[]> } = {};
  if (datasetFiles.length) {
    const dataset = new Map<string, BfclDatasetEntry>();
    for (const file of datasetFiles) {
      for (const v of jsonLines(file)) {
        if (v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string') dataset.set((v as BfclDatasetEntry).id, v as BfclDatasetEntry);
      }
    }
    join_.dataset = dataset;
  }
  if (funcDocDir) {
    if (!existsSync(funcDocDir) || !statSync(funcDocDir).isDirectory())
      throw new ExpectedError('INVALID_INPUT', `${funcDocDir}: not a folder; give BFCL's data/multi_turn_func_doc folder`);
    const docs = new Map<string, unknown[]>();
    const files = new Set(readdirSync(funcDocDir));
    for (const [cls, name] of Object.entries(BFCL_FUNC_DOC_FILES)) if (files.has(name)) docs.set(cls, jsonLines(join(funcDocDir, name)));
    // A folder of `<ClassName>.json` files works too.
    for (const f of files) {
      const cls = f.replace(/\.jsonl?$/, '');
      if (f !== cls && !docs.has(cls) && /^[A-Z]/.test(cls)) docs.set(cls, jsonLines(join(funcDocDir, f)));
    }
    if (docs.size === 0) throw new ExpectedError('INVALID_INPUT', `${funcDocDir}: no BFCL function doc files found (expected e.g. gorilla_file_system.json)`);
    join_.functionDocs = docs;
  }
  return join_;
}

function jsonLines(file: string): unknown[] {
  if (!existsSync(file)) throw new ExpectedError('INVALID_INPUT', `${file}: no such file`);
  const text = readFileSync(file, 'utf8').trim();
  if (text.startsWith('[')) {
    try {
      return JSON.parse(text) as unknown[];
    } catch {
      // not one array: read as lines below
    }
  }
  const out: unknown[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      out.push(JSON.parse(line));
    } catch (e) {
      throw new ExpectedError('INVALID_INPUT', `${file}:${i + 1}: not valid JSON (${(e as Error).message})`);
    }
  });
  return out;
}

// A demo project as `lots demo` leaves one, built with the engine's own writers instead of a run (a real
// runDemo, even on the generated reference model, takes minutes on a shared CPU): the bundled sample
// project's table_total requests as its traces, table_total's sweep with every method's evaluation result
// and per-request outcomes (store.writeSweep, as the benchmark's evaluation stores it), and optionally the
// demo record (store.writeDemo, as runDemo stores it). The Demo view reads it through the real service.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DemoRecord } from '../../shared/project/demo';
import type { BaselineResult } from '../../shared/project/sweeps';
import { TraceSchema, type Trace } from '../../shared/trace/schema';
import { ProjectStore } from '../../electron/engine/store';

/** The bundled sample project (a real `lots demo` run of the standard preset). */
export const SAMPLE = join(__dirname, '../../assets/sample-project/');
export const DEMO_TASK = 'table_total';
/** The space LOTS kept at K = 2 (table_total's gold chain). */
export const KEPT = ['TableQuery', 'Calculator'];
/** The evaluation requests the outcomes are of, in order: the sample's table_total-0004 … table_total-0015. */
export const REQUESTS = Array.from({ length: 12 }, (_, i) => `${DEMO_TASK}-${String(i + 4).padStart(4, '0')}`);

/** The sample project's traces with these ids, as its trace file holds them (each served with the whole 15-tool registry). */
export function sampleTraces(ids: readonly string[]): Trace[] {
  const wanted = new Set(ids);
  return readFileSync(join(SAMPLE, 'traces/0001.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => TraceSchema.parse(JSON.parse(line)))
    .filter((t) => wanted.has(t.id));
}

/** A method's evaluation result at K = 2: `correct[i]` the outcome of REQUESTS[i]; every request `promptTokens` long. */
export function evalResult(name: string, correct: readonly number[], promptTokens: number, extra: Partial<BaselineResult> = {}): BaselineResult {
  return {
    name,
    k: 2,
    tools: name === 'keep-all' ? [] : KEPT,
    accuracy: correct.reduce((a, b) => a + b, 0) / correct.length,
    n: correct.length,
    promptTokens,
    split: 'eval',
    outcomes: correct.map((c, i) => ({ request: REQUESTS[i]!, correct: c, promptTokens })),
    ...extra,
  };
}

/** A project "demo" holding the sample's table_total requests, its sweep with `results`, and `record` as its demo.json, in `dir` (a new folder by default); returns its folder. */
export function demoProject(results: BaselineResult[], record?: DemoRecord, dir: string = mkdtempSync(join(tmpdir(), 'lots-views-demo-'))): string {
  const store = ProjectStore.create(dir, 'demo');
  store.addTraces(sampleTraces(REQUESTS), 'table_total.jsonl');
  const lots = results.find((b) => b.name === 'lots');
  store.writeSweep({
    task: DEMO_TASK,
    model: '/models/reference.gguf',
    run: 'import:demo',
    points: [
      { k: 1, tools: KEPT.slice(0, 1), accuracy: 0, n: 2, promptTokens: 120 },
      { k: 2, tools: KEPT, accuracy: 1, n: 2, promptTokens: lots?.promptTokens ?? 150 },
    ],
    bestK: 2,
    baselines: results,
    createdAt: '2026-11-30T09:12:00.000Z',
  });
  if (record !== undefined) store.writeDemo(record);
  return dir;
}

/** The sample project's own demo record (demo.json), as runDemo wrote it. */
export function sampleDemoRecord(): DemoRecord {
  return JSON.parse(readFileSync(join(SAMPLE, 'demo.json'), 'utf8')) as DemoRecord;
}

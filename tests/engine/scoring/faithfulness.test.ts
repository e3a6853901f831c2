// The faithfulness check and the scoring job's bookkeeping, through real llama.cpp, in-process (the job
// functions the worker runs). On the evidence-copy model the tool whose line holds the answer is every
// request's top-1: removing it must cost more than removing a random tool, and for K = 1 the joint drop
// is the single-tool score itself (same frozen tokens, same scorer).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../../electron/engine/store';
import { JobControl } from '../../../electron/engine/jobs/control';
import { runFaithfulnessJob } from '../../../electron/engine/jobs/faithfulness-job';
import { runScoreJob } from '../../../electron/engine/jobs/score-job';
import type { FaithfulnessJobSpec, JobEvent, JobProgress, ScoreJobSpec } from '../../../electron/engine/jobs/protocol';
import { getLlama } from 'node-llama-cpp';
import { checkFaithfulness } from '../../../electron/engine/scoring/faithfulness';
import { createRenderer } from '../../../electron/engine/scoring/chat-template';
import { scoreTraces } from '../../../electron/engine/scoring/scorer';
import { toStoredScore } from '../../../electron/engine/scoring/trace-scores';
import { FAMILIES } from '../../../shared/benchmark/families';
import { generateBenchmark } from '../../../shared/benchmark/generate';
import { benchExecutor } from '../../../shared/benchmark/trace';
import { summarizeFaithfulness, type RequestFaithfulness } from '../../../shared/lots/faithfulness';
import type { StoredScore } from '../../../shared/project/scores';
import { copyTraces } from '../copy-traces';
import { evidenceCopyModel, fixtureModel, randomModel } from '../fixtures';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function runJob(spec: Omit<ScoreJobSpec, 'jobId'>): Promise<{ last: JobEvent; progress: JobProgress | undefined }> {
  const events: JobEvent[] = [];
  await runScoreJob({ jobId: `test-${Math.random().toString(36).slice(2)}`, ...spec }, new JobControl(), (e) => events.push(e));
  const last = events.at(-1)!;
  return { last, progress: 'progress' in last ? last.progress : undefined };
}

async function runCheck(spec: Omit<FaithfulnessJobSpec, 'jobId'>): Promise<{ last: JobEvent; progress: JobProgress | undefined }> {
  const events: JobEvent[] = [];
  await runFaithfulnessJob({ jobId: `test-${Math.random().toString(36).slice(2)}`, ...spec }, new JobControl(), (e) => events.push(e));
  const last = events.at(-1)!;
  return { last, progress: 'progress' in last ? last.progress : undefined };
}

describe('scoring job: unanswered requests and the rendering format', () => {
  let dir: string;
  let store: ProjectStore;
  const answered = copyTraces(8, 6, 41);
  const unanswered = copyTraces(2, 6, 42).map((t) => ({ ...t, id: `${t.id}-unserved`, turns: t.turns.map((turn) => ({ ...turn, answer: '' })) }));
  let scored: Awaited<ReturnType<typeof runJob>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lots-faith-'));
    dirs.push(dir);
    ProjectStore.create(dir).addTraces([...answered, ...unanswered], 'synthetic');
    scored = await runJob({ project: dir, model: evidenceCopyModel(), intervention: 'line', span: 'answer', gpu: 'cpu' });
    store = ProjectStore.open(dir);
  });

  it('skips traces with no answer: no rows for them, counted and named in the summary', () => {
    expect(scored.last).toMatchObject({ type: 'finished', status: 'done' });
    expect(scored.progress).toMatchObject({ done: 8, total: 8, scoredNow: 8, skipped: 0, unanswered: 2 });
    expect(scored.progress!.message).toMatch(/2 traces have no answer yet and are skipped/);
    const rows = store.listScores();
    expect(rows.map((r) => r.trace).sort()).toEqual(answered.map((t) => t.id).sort());
  });

  it('records the rendering format on every score and in the run key', () => {
    const rows = store.listScores();
    expect(new Set(rows.map((r) => r.format))).toEqual(new Set(['plain']));
    expect(rows[0]!.run).toMatch(/\|line\|answer\|plain$/);
    expect(rows.every((r) => r.key.startsWith(`${r.run}|`))).toBe(true);
  });

  it('a project where nothing is answered finishes at once, without loading the model', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'lots-faith-'));
    dirs.push(empty);
    ProjectStore.create(empty).addTraces(unanswered, 'synthetic');
    const r = await runJob({ project: empty, model: join(empty, 'no-such-model.gguf'), intervention: 'line', span: 'answer', gpu: 'cpu' });
    expect(r.last).toMatchObject({ type: 'finished', status: 'done', progress: { total: 0, unanswered: 2 } });
    expect(r.progress!.message).toMatch(/^nothing to score: 2 traces have no answer yet/);
    expect(ProjectStore.open(empty).listScores()).toEqual([]);
  });

  it('a chat-template model scored as a template and as plain text gives two runs, never one', async () => {
    const chat = mkdtempSync(join(tmpdir(), 'lots-faith-'));
    dirs.push(chat);
    ProjectStore.create(chat).addTraces(copyTraces(2, 3, 43), 'synthetic');
    const model = fixtureModel({ kind: 'evidence-copy', chatml: true });
    for (const format of ['template', 'plain'] as const) await runJob({ project: chat, model, intervention: 'line', span: 'answer', gpu: 'cpu', format });
    const rows = ProjectStore.open(chat).listScores();
    expect(rows).toHaveLength(4);
    const runs = [...new Set(rows.map((r) => r.run))];
    expect(runs).toHaveLength(2);
    const formats = rows.map((r) => r.format!);
    expect(formats.filter((f) => f === 'plain')).toHaveLength(2);
    expect(formats.filter((f) => f !== 'plain')).toHaveLength(2);
    for (const r of rows) expect(r.run.endsWith(`|${r.format}`)).toBe(true);
  });

  describe('faithfulness check', () => {
    let run: string;
    beforeAll(async () => {
      run = store.listRuns()[0]!;
      const r = await runCheck({ project: dir, model: evidenceCopyModel(), gpu: 'cpu', run, ks: [1, 2], draws: 3 });
      expect(r.last, JSON.stringify(r.last)).toMatchObject({ type: 'finished', status: 'done', progress: { done: 8, total: 8 } });
    });

    it('removing the top-1 costs more than a random tool; for K = 1 the joint drop is the single score', () => {
      const record = ProjectStore.open(dir).readFaithfulness('copy');
      expect(record.checks).toHaveLength(1);
      const check = record.checks[0]!;
      expect(check).toMatchObject({ run, intervention: 'line', span: 'answer', format: 'plain' });
      expect(check.baseDrift).toBeLessThan(1e-3);
      const [k1, k2] = check.points;
      expect(k1).toMatchObject({ k: 1, n: 8, draws: 3, rows: 8, tools: ['TableQuery'] });
      expect(k1!.joint).toBeGreaterThan(k1!.random);
      expect(k1!.joint).toBeGreaterThan(0);
      expect(Math.abs(k1!.joint - k1!.additive)).toBeLessThan(1e-3);
      expect(k2).toMatchObject({ k: 2, n: 8 });
      expect(k2!.tools[0]).toBe('TableQuery');
      expect(k2!.joint).toBeGreaterThan(k2!.random);
      console.log(
        `faithfulness on evidence-copy (8 requests, 6 tools, 3 draws): ${check.points.map((p) => `K=${p.k} joint ${p.joint.toFixed(4)} additive ${p.additive.toFixed(4)} random ${p.random.toFixed(4)} beats random ${(p.beatsRandom * 100).toFixed(0)}%`).join('; ')}; base drift ${check.baseDrift}`,
      );
    });

    it("refuses a model file that is not the run's", async () => {
      const r = await runCheck({ project: dir, model: randomModel(), gpu: 'cpu', run, ks: [1], draws: 1 });
      expect(r.last).toMatchObject({ type: 'failed', error: { code: 'MODEL_MISMATCH' } });
    });
  });
});

describe('faithfulness check with re-execution (the benchmark executor rebuilds the chain without all K)', () => {
  it("removing table_total's gold chain together costs more than two random tools", async () => {
    const traces = generateBenchmark({ fit: 1, eval: 0, answers: 'gold', families: ['table_total'], registry: 15 });
    const llama = await getLlama({ gpu: false, build: 'never' });
    const model = await llama.loadModel({ modelPath: evidenceCopyModel() });
    try {
      const renderer = createRenderer(model);
      const rows = new Map<string, StoredScore>();
      await scoreTraces(model, renderer, traces, { mode: 'optimized', intervention: 'reexecute', span: 'answer', executor: benchExecutor }, (r) => {
        rows.set(
          r.plan.trace.id,
          toStoredScore(r.plan, r.logprobs, {
            key: r.plan.trace.id,
            run: 'r',
            traceHash: 'h',
            model: 'm',
            modelName: 'm',
            intervention: 'reexecute',
            span: 'answer',
            piece: () => '',
          }),
        );
      });
      const chain: string[] = [...FAMILIES.table_total.chainTools];
      const rest = [...new Set([...rows.values()].flatMap((r) => Object.keys(r.scores)))].filter((t) => !chain.includes(t)).sort();
      const results: RequestFaithfulness[] = [];
      await checkFaithfulness(
        model,
        renderer,
        {
          traces,
          rows,
          rankingOf: () => [...chain, ...rest],
          ks: [chain.length],
          draws: 3,
          seed: 1,
          intervention: 'reexecute',
          span: 'answer',
          executor: benchExecutor,
        },
        {},
        (r) => void results.push(...r.results),
      );
      const [point] = summarizeFaithfulness(results);
      expect(point).toMatchObject({ k: chain.length, n: 1 });
      expect(point!.joint).toBeGreaterThan(point!.random);
    } finally {
      await model.dispose();
    }
  });
});

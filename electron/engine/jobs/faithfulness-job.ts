// The faithfulness check as a job (same queue, worker and controls as scoring): load the run's model,
// check every scored request of the chosen tasks, then store one point per K in faithfulness/<task>.json.
// Pause waits between requests; cancel stores nothing (a mean over part of the requests would mislead).
import { basename } from 'node:path';
import { fitTask } from '../../../shared/lots/fit';
import { summarizeFaithfulness, type RequestFaithfulness } from '../../../shared/lots/faithfulness';
import type { FaithfulnessCheck } from '../../../shared/project/faithfulness';
import { parseRunKey, type ScoreSpan, type StoredScore } from '../../../shared/project/scores';
import type { InterventionKind } from '../../../shared/trace/interventions';
import { benchExecutor } from '../../../shared/benchmark/trace';
import type { Trace } from '../../../shared/trace/schema';
import { UNROUTED } from '../../../shared/lots/aggregate';
import { ProjectStore } from '../store';
import { loadModel } from '../llama/load';
import { modelFileHash } from '../llama/hash';
import { checkFaithfulness } from '../scoring/faithfulness';
import { createRenderer, type RenderFormat } from '../scoring/chat-template';
import { renderFormatName } from '../scoring/keys';
import { holdWhilePaused, type JobControl } from './control';
import { reportFailure } from './failure';
import type { FaithfulnessJobSpec, JobEvent, JobProgress } from './protocol';
import { ExpectedError, type ErrorCode } from '../../../shared/api/errors';
import { jobStateWriter } from './job-state';

export const DEFAULT_FAITHFULNESS_DRAWS = 3;
export const DEFAULT_FAITHFULNESS_SEED = 1;

export async function runFaithfulnessJob(spec: FaithfulnessJobSpec, control: JobControl, emit: (event: JobEvent) => void): Promise<void> {
  const store = ProjectStore.open(spec.project);
  const progress: JobProgress = { done: 0, total: 0, scoredNow: 0, skipped: 0 };
  const persist = jobStateWriter(store, { id: spec.jobId, kind: 'faithfulness', options: spec }, progress);
  try {
    const parts = parseRunKey(spec.run);
    if (!parts)
      throw failure(
        'INVALID_INPUT',
        `run "${spec.run}" holds imported scores: the check recomputes likelihoods, which needs scores computed here with a model`,
      );
    const { requests, rows, byTask } = selectRequests(store, spec.run, spec.tasks);
    progress.total = requests.length;
    progress.message = 'hashing the model file';
    persist('running');
    emit({ type: 'status', status: 'running', message: progress.message });
    const modelHash = await modelFileHash(spec.model);
    if (modelHash !== parts.modelHash) {
      throw failure(
        'MODEL_MISMATCH',
        `${spec.model} is not the model file run "${spec.run}" was scored with (its hash is ${modelHash}); pick that model (${rows.values().next().value?.model ?? 'see the run'})`,
      );
    }
    progress.message = 'loading the model';
    emit({ type: 'progress', progress: { ...progress } });
    const { model } = await loadModel(spec.model, { gpu: spec.gpu });
    const renderer = createRenderer(model, renderFormatOf(parts.format, spec.format));
    if (parts.format !== undefined && parts.format !== renderFormatName(renderer.format)) {
      throw failure('FORMAT_MISMATCH', `run "${spec.run}" was rendered as "${parts.format}" but this model now renders as "${renderer.format}"`);
    }
    const modelName = model.fileInfo.metadata.general?.name ?? basename(spec.model);
    const rankings = new Map<string, string[]>();
    for (const [task, taskRows] of byTask)
      rankings.set(
        task,
        fitTask(task, taskRows, { bootstrap: false }).ranking.map((r) => r.tool),
      );
    const seed = spec.seed ?? DEFAULT_FAITHFULNESS_SEED;

    const results = new Map<string, RequestFaithfulness[]>();
    let baseDrift = 0;
    for (;;) {
      const pending = requests.filter((t) => !results.has(t.id));
      progress.message = `checking ${pending.length} requests (K = ${spec.ks.join(', ')}, ${spec.draws} random draws each)`;
      emit({ type: 'progress', progress: { ...progress } });
      const summary = await checkFaithfulness(
        model,
        renderer,
        {
          traces: pending,
          rows,
          rankingOf: (t) => rankings.get(t.task ?? UNROUTED) ?? [],
          ks: spec.ks,
          draws: spec.draws,
          seed,
          intervention: parts.intervention as InterventionKind,
          span: parts.span as ScoreSpan,
          executor: parts.intervention === 'reexecute' ? benchExecutor : undefined,
        },
        { parallel: spec.parallel, contextSize: spec.contextSize, shouldStop: () => control.stopRequested !== null },
        (r) => {
          results.set(r.trace.id, r.results);
          if (!Number.isNaN(r.baseDrift)) baseDrift = Math.max(baseDrift, r.baseDrift);
          progress.done++;
          progress.scoredNow++;
          emit({ type: 'progress', progress: { ...progress } });
        },
      );
      if (!summary.stopped) break;
      if (await holdWhilePaused(control, progress, persist, emit)) continue;
      progress.message = 'cancelled: nothing stored (a check over part of the requests would mislead)';
      persist('cancelled');
      emit({ type: 'finished', status: 'cancelled', progress: { ...progress } });
      return;
    }

    const now = new Date().toISOString();
    const lines: string[] = [];
    for (const [task, taskRows] of byTask) {
      const measured = requests.filter((t) => (t.task ?? UNROUTED) === task).flatMap((t) => results.get(t.id) ?? []);
      const ranking = rankings.get(task)!;
      const points = summarizeFaithfulness(measured, spec.ks).map((p) => ({
        ...p,
        tools: ranking.slice(0, p.k),
        draws: spec.draws,
        rows: taskRows.length,
        createdAt: now,
      }));
      const record: FaithfulnessCheck = {
        run: spec.run,
        model: spec.model,
        modelName,
        intervention: parts.intervention,
        span: parts.span as ScoreSpan,
        format: parts.format ?? renderer.format,
        seed,
        baseDrift,
        points,
      };
      store.writeFaithfulness(task, record);
      lines.push(
        `${task}: ${points.map((p) => (p.n > 0 ? `K=${p.k} joint ${p.joint.toFixed(3)} vs random ${p.random.toFixed(3)}` : `K=${p.k} not measurable (no request has ${p.k} scoreable tools)`)).join(', ')}`,
      );
    }
    progress.message = `checked ${progress.done} requests: ${lines.join('; ')}`;
    persist('done');
    store.logActivity({ kind: 'faithfulness', message: `faithfulness check with ${modelName}: ${lines.join('; ')}`, data: { job: spec.jobId, run: spec.run } });
    emit({ type: 'finished', status: 'done', progress: { ...progress } });
  } catch (e) {
    reportFailure(e, persist, (error) => emit({ type: 'failed', error, progress: { ...progress } }));
  }
}

/** The run's scored requests of the chosen tasks whose trace is still the one that was scored. */
function selectRequests(
  store: ProjectStore,
  run: string,
  tasks: readonly string[] | undefined,
): { requests: Trace[]; rows: Map<string, StoredScore>; byTask: Map<string, StoredScore[]> } {
  const wanted = tasks && tasks.length > 0 ? new Set(tasks) : undefined;
  const rows = new Map<string, StoredScore>();
  for (const row of store.listScores(run)) if (!wanted || wanted.has(row.task ?? UNROUTED)) rows.set(row.trace, row);
  if (rows.size === 0) {
    throw failure('NOT_FOUND', `run "${run}" has no scores${wanted ? ` for ${[...wanted].map((t) => `"${t}"`).join(', ')}` : ''}; score the project first`);
  }
  const byTask = new Map<string, StoredScore[]>();
  const requests: Trace[] = [];
  for (const row of rows.values()) {
    const task = row.task ?? UNROUTED;
    let list = byTask.get(task);
    if (!list) byTask.set(task, (list = []));
    list.push(row);
    const trace = store.getTrace(row.trace);
    if (trace && (row.traceHash === undefined || row.traceHash === store.getTraceHash(trace.id))) requests.push(trace);
  }
  return { requests, rows, byTask };
}

function renderFormatOf(recorded: string | undefined, requested: RenderFormat | undefined): RenderFormat {
  if (recorded === 'plain') return 'plain';
  if (recorded !== undefined) return 'template';
  return requested ?? 'auto';
}

function failure(code: ErrorCode, message: string): ExpectedError {
  return new ExpectedError(code, message);
}

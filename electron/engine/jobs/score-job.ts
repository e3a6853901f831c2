// A scoring job, run inside the job's own process: open the project, skip traces whose score is
// already stored, score the rest with the optimized path and append each record as its trace
// finishes. Killed at any point, a rerun loses nothing and recomputes nothing (keys skip what is
// stored; a torn last line is cut by the store). Traces with no answer yet (a benchmark's requests
// before serving) are left out.
import { basename } from 'node:path';
import type { Trace } from '../../../shared/trace/schema';
import { ProjectStore } from '../store';
import type { JobState } from '../store';
import { loadModel } from '../llama/load';
import { modelFileHash } from '../llama/hash';
import { createRenderer } from '../scoring/chat-template';
import { scoreTraces } from '../scoring/scorer';
import { toStoredScore } from '../scoring/trace-scores';
import { scoreKey, scoreRun } from '../scoring/keys';
import { benchExecutor } from '../../../shared/benchmark/trace';
import { holdWhilePaused, type JobControl } from './control';
import { reportFailure } from './failure';
import type { JobEvent, JobProgress, ScoreJobSpec } from './protocol';
import type { JobScorer } from './job-scorer';
import { openRemoteScorer } from '../scoring/remote/remote-job';
import { ExpectedError } from '../../../shared/api/errors';

export async function runScoreJob(spec: ScoreJobSpec, control: JobControl, emit: (event: JobEvent) => void): Promise<void> {
  const store = ProjectStore.open(spec.project);
  const createdAt = store.readJob(spec.jobId)?.createdAt ?? new Date().toISOString();
  const progress: JobProgress = { done: 0, total: 0, scoredNow: 0, skipped: 0 };
  const persist = (status: JobState['status'], error?: { code: string; message: string }): void => {
    store.writeJob({
      id: spec.jobId,
      kind: 'score',
      status,
      createdAt,
      updatedAt: new Date().toISOString(),
      options: { ...spec },
      progress: {
        done: progress.done,
        total: progress.total,
        ...(progress.tokensPerSecond !== undefined ? { tokensPerSecond: progress.tokensPerSecond } : {}),
        ...(progress.etaSeconds !== undefined ? { etaSeconds: progress.etaSeconds } : {}),
        ...(progress.message !== undefined ? { message: progress.message } : {}),
      },
      ...(error ? { error } : {}),
      pid: process.pid,
    });
  };
  let scorer: JobScorer | undefined;
  try {
    const selected = selectTraces(store, spec.tasks);
    const traces = selected.filter(hasAnswer);
    progress.total = traces.length;
    progress.unanswered = selected.length - traces.length;
    const unanswered = progress.unanswered > 0 ? `${progress.unanswered} ${progress.unanswered === 1 ? 'trace has' : 'traces have'} no answer yet and ${progress.unanswered === 1 ? 'is' : 'are'} skipped (serve them first)` : '';
    if (traces.length === 0) {
      progress.message = `nothing to score: ${unanswered}`;
      persist('done');
      store.logActivity({ kind: 'score', message: progress.message, data: { job: spec.jobId } });
      emit({ type: 'finished', status: 'done', progress: { ...progress } });
      return;
    }
    const note = (message: string): void => {
      progress.message = message;
      persist('running');
      emit({ type: 'status', status: 'running', message });
    };
    scorer = spec.remote ? await openRemoteScorer(spec, spec.remote, note) : await openLocalScorer(spec, note);
    const { run, modelName } = scorer;
    const keyOf = (t: Trace): string => scoreKey(run, store.getTraceHash(t.id)!);

    let tokens = 0;
    let scoringSeconds = 0;
    let lastPersist = 0;
    for (;;) {
      store.refresh();
      const pending = traces.filter((t) => !store.hasScore(keyOf(t)));
      progress.done = traces.length - pending.length;
      if (progress.scoredNow === 0) progress.skipped = progress.done;
      progress.message = `${pending.length ? `scoring ${pending.length} traces` : 'nothing left to score'}${unanswered ? `; ${unanswered}` : ''}`;
      emit({ type: 'progress', progress: { ...progress } });
      const started = performance.now();
      const summary = await scorer.score(
        pending,
        () => control.stopRequested !== null,
        async (result) => {
          const record = toStoredScore(result.plan, result.logprobs, {
            key: keyOf(result.plan.trace),
            run,
            traceHash: store.getTraceHash(result.plan.trace.id)!,
            model: scorer!.model,
            modelName,
            intervention: spec.intervention,
            span: spec.span,
            format: scorer!.format,
            piece: (token) => scorer!.piece(token),
          });
          // Waits (saying so in the job's status) while another writer holds the project lock.
          await store.appendScoresAsync([record], { onWait: (wait) => emit({ type: 'status', status: 'running', message: wait.message }) });
          progress.done++;
          progress.scoredNow++;
          tokens += result.stats.tokensEvaluated;
          const elapsed = scoringSeconds + (performance.now() - started) / 1000;
          progress.tokensPerSecond = elapsed > 0 ? tokens / elapsed : undefined;
          progress.etaSeconds = elapsed > 0 ? ((progress.total - progress.done) * elapsed) / progress.scoredNow : undefined;
          emit({ type: 'progress', progress: { ...progress } });
          if (performance.now() - lastPersist > 1000) {
            lastPersist = performance.now();
            persist('running');
          }
        },
      );
      scoringSeconds += (performance.now() - started) / 1000;
      if (!summary.stopped) break;
      if (await holdWhilePaused(control, progress, persist, emit)) continue;
      progress.message = 'cancelled';
      persist('cancelled');
      store.logActivity({ kind: 'score', message: `scoring cancelled after ${progress.scoredNow} traces (${progress.done}/${progress.total} scored)`, data: { job: spec.jobId, run } });
      emit({ type: 'finished', status: 'cancelled', progress: { ...progress } });
      return;
    }
    const where = scorer.summary?.();
    progress.message = `scored ${progress.scoredNow} traces (${progress.skipped} were already scored${unanswered ? `; ${unanswered}` : ''})${where ? `; ${where}` : ''}`;
    progress.etaSeconds = 0;
    persist('done');
    store.logActivity({ kind: 'score', message: `scored ${progress.scoredNow} traces with ${modelName} (${spec.intervention}, ${spec.span})`, data: { job: spec.jobId, run } });
    emit({ type: 'finished', status: 'done', progress: { ...progress } });
  } catch (e) {
    reportFailure(e, persist, (error) => emit({ type: 'failed', error, progress: { ...progress } }));
  } finally {
    await scorer?.dispose();
  }
}

/** The local backend: the GGUF loaded into llama.cpp here, keyed by the file's hash. */
async function openLocalScorer(spec: ScoreJobSpec, note: (message: string) => void): Promise<JobScorer> {
  note('hashing the model file');
  const modelHash = await modelFileHash(spec.model);
  note('loading the model');
  const { model } = await loadModel(spec.model, { gpu: spec.gpu });
  const renderer = createRenderer(model, spec.format ?? 'auto');
  // The rendering is part of the run: a template and a plain transcript of one model never mix.
  const run = scoreRun(modelHash, spec.intervention, spec.span, renderer.format);
  return {
    run,
    model: spec.model,
    modelName: model.fileInfo.metadata.general?.name ?? basename(spec.model),
    format: renderer.format,
    piece: (token) => model.detokenize([token], false),
    score: (pending, shouldStop, onTrace) =>
      scoreTraces(
        model,
        renderer,
        pending,
        {
          mode: 'optimized',
          intervention: spec.intervention,
          span: spec.span,
          executor: spec.intervention === 'reexecute' ? benchExecutor : undefined,
          parallel: spec.parallel,
          contextSize: spec.contextSize,
          shouldStop,
        },
        onTrace,
      ),
    // The job's process exits when the job ends; the model goes with it.
    dispose: async () => undefined,
  };
}

/** A trace is worth scoring when at least one turn has a frozen answer to score. */
export function hasAnswer(trace: Trace): boolean {
  return trace.turns.some((turn) => turn.answer !== '');
}

export function selectTraces(store: ProjectStore, tasks: readonly string[] | undefined): Trace[] {
  if (!tasks || tasks.length === 0) return store.listTraces();
  const wanted = new Set(tasks);
  // Only the traces of these tasks are read.
  const picked = store.listTraces((t) => t.task !== undefined && wanted.has(t.task));
  if (picked.length === 0) {
    const known = [...new Set([...store.traceTasks().values()].filter(Boolean))].sort();
    throw new ExpectedError('NOT_FOUND', `no trace has task ${tasks.map((t) => `"${t}"`).join(' or ')}; tasks in this project: ${known.join(', ') || '(none)'}`);
  }
  return picked;
}

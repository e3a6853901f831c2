// The BFCL serving loop (issue 42, item 1): a local model answers a multi-turn record turn by turn against
// the official executable API classes. Each request is rendered by the scorer's own renderer (the same
// chat wrapper, so a served trace is later scored against the very context it was generated from) and
// answered greedily; the calls the model writes in its tool-call format are turned into BFCL call strings
// (`cd(folder='x')`, Python's repr of each argument, as the official handlers do), executed by the
// official classes, and their observations appended, until the model answers with text or the step limit
// (the official 20 by default) cuts the turn. The official multi_turn_checker grades the record.
import { LlamaText, SpecialTokensText, type ChatWrapper, type LlamaContext, type LlamaContextSequence, type LlamaModel, type Token } from 'node-llama-cpp';
import { basename } from 'node:path';
import {
  bfclArmMenu,
  emptyOutcome,
  parseToolCalls,
  type BfclArmMenu,
  type BfclMenuForm,
  type BfclRecordOutcome,
  type CallSyntax,
} from '../../../shared/benchmark/bfcl-serve';
import { primaryClassOf, recordMenu, turnRequests, type BfclAnswer, type BfclDoc, type BfclEntry } from '../../../shared/benchmark/bfcl';
import { TRACE_FORMAT_VERSION, type Step, type ToolDef, type Trace, type Turn } from '../../../shared/trace/schema';
import { generateGreedyCounted } from '../benchmark/generate';
import { SERVE_BATCH_TOKENS } from '../benchmark/server';
import { createScoringContext, loadModel, type LoadedModel } from '../llama/load';
import type { GpuChoice } from '../llama/runtime';
import { createRenderer, resolveScoringChatWrapper, type TraceRenderer } from '../scoring/chat-template';
import type { BfclHarness } from './harness';
import { ExpectedError } from '../../../shared/api/errors';

/** The official harness's step limit per turn (bfcl_eval.constants.default_prompts.MAXIMUM_STEP_LIMIT). */
export const BFCL_MAX_STEPS = 20;
export const DEFAULT_BFCL_MAX_TOKENS = 256;
export const DEFAULT_BFCL_CONTEXT = 16384;

export interface BfclServerOptions {
  gpu?: GpuChoice;
  threads?: number;
  contextSize?: number;
  /** Tokens one response may generate. */
  maxTokens?: number;
  /** Steps (responses) a turn may take before it is cut. */
  maxSteps?: number;
  /** Read calls written as JSON objects outside the format's markers too (default true; false is the
   * official handlers' strict decoding). */
  lenient?: boolean;
  signal?: AbortSignal;
}

/** One record served under one arm. */
export interface ServedRecord {
  trace: Trace;
  outcome: BfclRecordOutcome;
  /** Per turn, per step, the call strings executed (what the checker graded). */
  result: string[][][];
}

/** What answered an open request: the text and token counts, or why there was no room for it. */
export type Response = { text: string; promptTokens: number; generated: number } | { full: string };

export interface ResponseSource {
  respond(trace: Trace, turn: number): Promise<Response>;
}

export interface ServeRecordOptions {
  split?: 'fit' | 'eval';
  onStep?: (turn: number, step: number, line: string) => void;
}

/** A chat wrapper's call format as strings (special-token text kept as its text). */
export function callSyntax(wrapper: ChatWrapper): CallSyntax {
  const text = (v: unknown): string =>
    LlamaText(v as never)
      .values.map((x) => (typeof x === 'string' ? x : x instanceof SpecialTokensText ? x.value : ''))
      .join('');
  const call = wrapper.settings.functions.call;
  return { prefix: text(call.prefix), paramsPrefix: text(call.paramsPrefix), suffix: text(call.suffix) };
}

/**
 * Tokens that end a generated message besides end-of-generation ones: a control token outside the call
 * format (Qwen's `<|im_start|>`). A server's chat endpoint never puts one in a message's content; kept as
 * text it would open a fake message in every later request of the record.
 */
export function messageEnd(model: LlamaModel, syntax: CallSyntax): (token: Token) => boolean {
  const known = new Map<Token, boolean>();
  const format = `${syntax.prefix}${syntax.suffix}`;
  return (token) => {
    let stop = known.get(token);
    if (stop === undefined) {
      const text = model.detokenize([token], true);
      stop = Boolean(model.getTokenAttributes(token).control) && text !== '' && !format.includes(text);
      known.set(token, stop);
    }
    return stop;
  };
}

export class BfclServer {
  private sequence: LlamaContextSequence | undefined;
  private context: LlamaContext | undefined;
  readonly syntax: CallSyntax;
  private readonly maxTokens: number;
  private readonly endsMessage: (token: Token) => boolean;
  private readonly maxSteps: number;
  private readonly contextSize: number;

  private constructor(
    readonly loaded: LoadedModel,
    readonly renderer: TraceRenderer,
    wrapper: ChatWrapper,
    private readonly options: BfclServerOptions,
  ) {
    this.syntax = callSyntax(wrapper);
    this.endsMessage = messageEnd(loaded.model, this.syntax);
    this.maxTokens = options.maxTokens ?? DEFAULT_BFCL_MAX_TOKENS;
    this.maxSteps = options.maxSteps ?? BFCL_MAX_STEPS;
    this.contextSize = Math.min(options.contextSize ?? DEFAULT_BFCL_CONTEXT, loaded.model.trainContextSize);
  }

  static async open(modelPath: string, options: BfclServerOptions = {}): Promise<BfclServer> {
    const loaded = await loadModel(modelPath, { gpu: options.gpu, signal: options.signal, contextSize: options.contextSize ?? DEFAULT_BFCL_CONTEXT });
    try {
      if (typeof loaded.model.fileInfo.metadata.tokenizer?.chat_template !== 'string')
        throw new ExpectedError('MODEL_UNSUPPORTED', `${modelPath} has no chat template: BFCL needs a model that writes tool calls in its own format`);
      const renderer = createRenderer(loaded.model, 'template');
      return new BfclServer(loaded, renderer, resolveScoringChatWrapper(loaded.model), options);
    } catch (e) {
      await loaded.model.dispose();
      throw e;
    }
  }

  get modelName(): string {
    return basename(this.loaded.path);
  }

  private async seq(): Promise<LlamaContextSequence> {
    if (!this.sequence) {
      // The benchmark server's batches: the cache is reused in whole batches only (generate.ts), so a turn
      // keeps its record's earlier turns less under 128 tokens (the default 512 would keep nothing of a
      // prompt sharing fewer than 512 tokens with the last, and more than 400 less of the rest).
      this.context = await createScoringContext(this.loaded.model, {
        contextSize: this.contextSize,
        sequences: 1,
        batchSize: SERVE_BATCH_TOKENS,
        threads: this.options.threads,
      });
      this.sequence = this.context.getSequence();
    }
    return this.sequence;
  }

  /** Answers the open request of a turn (the prompt rendered by the scorer's renderer), greedily. */
  async respond(trace: Trace, turn: number): Promise<Response> {
    const sequence = await this.seq();
    const prompt = this.renderer.render(trace, turn, '');
    if (prompt.length + this.maxTokens > this.contextSize) return { full: `${prompt.length} prompt tokens of ${this.contextSize}` };
    const gen = await generateGreedyCounted(this.loaded.model, sequence, prompt, {
      maxTokens: this.maxTokens,
      stopAtNewline: false,
      specialTokens: true,
      stopAt: this.endsMessage,
    });
    return { text: gen.text, promptTokens: prompt.length, generated: gen.generated };
  }

  /** Serves one record under a menu: every turn, every step, then the official checker's verdict. */
  serveRecord(
    harness: BfclHarness,
    entry: BfclEntry,
    answer: BfclAnswer,
    menu: BfclArmMenu,
    arm: string,
    options: ServeRecordOptions = {},
  ): Promise<ServedRecord> {
    return serveRecordWith(this, harness, entry, answer, menu, arm, {
      syntax: this.syntax,
      maxSteps: this.maxSteps,
      lenient: this.options.lenient ?? true,
      model: this.modelName,
      signal: this.options.signal,
      ...options,
    });
  }

  async close(): Promise<void> {
    await this.context?.dispose();
    await this.loaded.model.dispose();
  }
}

/**
 * The loop of one record: each turn's user request, then responses until one is not a call (or the step
 * limit); the calls of a response executed by the official classes in the record's session, a call to a
 * function the menu hides refused with an error observation and not executed; then the official checker.
 * `source` answers each open request: the model (BfclServer), or a script in tests.
 */
export async function serveRecordWith(
  source: ResponseSource,
  harness: BfclHarness,
  entry: BfclEntry,
  answer: BfclAnswer,
  menu: BfclArmMenu,
  arm: string,
  options: ServeRecordOptions & { syntax: CallSyntax; maxSteps: number; lenient: boolean; model?: string; signal?: AbortSignal },
): Promise<ServedRecord> {
  const started = Date.now();
  const cls = primaryClassOf(entry);
  const session = `${arm}_${entry.id}`;
  const deferred = new Set(menu.deferred);
  const hidden = new Set(menu.hidden);
  const trace: Trace = {
    v: TRACE_FORMAT_VERSION,
    id: `bfcl/${arm}/${entry.id}`,
    task: cls,
    tools: menu.tools,
    turns: [],
    ...(options.model ? { model: options.model } : {}),
    ...(options.split ? { split: options.split } : {}),
    meta: { bfcl: { id: entry.id, arm, pinned: menu.pinned, deferred: menu.deferred, hidden: menu.hidden } },
  };
  const outcome = emptyOutcome(arm, entry.id, cls);
  const result: string[][][] = [];
  try {
    for (const [t, request] of turnRequests(entry).entries()) {
      const turn: Turn = { request, steps: [], answer: '' };
      trace.turns.push(turn);
      const turnResult: string[][] = [];
      result.push(turnResult);
      let ended = false;
      for (let s = 0; s < options.maxSteps && !ended; s++) {
        if (options.signal?.aborted) throw new ExpectedError('CANCELLED', 'the BFCL run was cancelled');
        const response = await source.respond(trace, t);
        if ('full' in response) {
          outcome.error = `context full at turn ${t} step ${s} (${response.full})`;
          ended = true;
          break;
        }
        if (outcome.steps === 0) outcome.firstPromptTokens = response.promptTokens;
        outcome.steps++;
        outcome.promptTokens += response.promptTokens;
        outcome.generatedTokens += response.generated;
        const parsed = parseToolCalls(response.text, options.syntax, { lenient: options.lenient });
        if (parsed.undecodable) outcome.undecodable++;
        if (parsed.lenient) outcome.lenient++;
        if (parsed.calls.length === 0) {
          // An empty response after calls closes the turn (as BFCL's own logs end a turn): the turn's last
          // assistant message with content is then its last call, the frozen target (B.2), as the BFCL
          // importer reads such a turn.
          if (parsed.text.trim() === '' && turn.steps.some((x) => x.kind === 'call')) turn.target = 'call';
          else turn.answer = parsed.text;
          options.onStep?.(t, s, `answer ${JSON.stringify(parsed.text.slice(0, 80))}${parsed.undecodable ? ` (undecodable call: ${parsed.undecodable})` : ''}`);
          ended = true;
          break;
        }
        const ids = parsed.calls.map((_, i) => `t${t}.s${s}.c${i}`);
        const runnable = parsed.calls.map((c, i) => ({ c, i })).filter(({ c }) => !hidden.has(c.name));
        const strings = { calls: await harness.toCalls(runnable.map(({ c }) => c)) };
        const observations = strings.calls.length ? await harness.execute(session, entry, strings.calls) : [];
        const observed = new Map(runnable.map(({ i }, k) => [i, observations[k] ?? '']));
        const steps: Step[] = [
          {
            kind: 'call',
            ...(parsed.text ? { text: parsed.text } : {}),
            calls: parsed.calls.map((c, i) => ({ id: ids[i]!, name: c.name, arguments: c.arguments })),
          },
        ];
        parsed.calls.forEach((c, i) => {
          const content = observed.get(i) ?? refusal(c.name);
          steps.push({ kind: 'observation', callId: ids[i]!, name: c.name, content, pairing: 'id', ...(content.startsWith('Error') ? { isError: true } : {}) });
        });
        turn.steps.push(...steps);
        turnResult.push(strings.calls);
        outcome.calls += parsed.calls.length;
        outcome.deferredCalls += parsed.calls.filter((c) => deferred.has(c.name)).length;
        outcome.hiddenCalls += parsed.calls.length - runnable.length;
        options.onStep?.(t, s, `calls ${strings.calls.join('; ').slice(0, 160)}`);
      }
      if (!ended) {
        // Cut at the step limit: the turn's last assistant message is a call, its frozen target (B.2).
        turn.target = 'call';
        outcome.stepLimited++;
      }
    }
    const verdict = await harness.check(entry, answer.ground_truth, result);
    outcome.valid = verdict.valid;
    outcome.turns = result.length;
    outcome.turnsPassed = verdict.valid ? result.length : await turnsPassed(harness, entry, answer, result);
    if (!verdict.valid && !outcome.error) outcome.error = `${verdict.error_type ?? 'invalid'}: ${String(verdict.error_message ?? '').slice(0, 200)}`;
  } finally {
    await harness.endSession(session).catch(() => {});
  }
  outcome.seconds = (Date.now() - started) / 1000;
  return { trace, outcome, result };
}

/** The observation a call to a function the menu hides gets (the call is not executed). */
export function refusal(name: string): string {
  return `Error: the function ${name} is not offered on this menu.`;
}

/** How many leading turns of a served record the official checker accepts (it is run on each prefix). */
export async function turnsPassed(harness: BfclHarness, entry: BfclEntry, answer: BfclAnswer, result: readonly (readonly string[][])[]): Promise<number> {
  for (let k = 1; k <= result.length; k++) {
    const verdict = await harness.check(entry, answer.ground_truth.slice(0, k), result.slice(0, k));
    if (!verdict.valid) return k - 1;
  }
  return result.length;
}

/** The call strings a served trace executed, per turn and step (calls refused by the menu left out), as the checker takes them. */
export async function traceResult(harness: BfclHarness, trace: Trace): Promise<string[][][]> {
  const out: string[][][] = [];
  for (const turn of trace.turns) {
    const steps: string[][] = [];
    const observation = new Map(turn.steps.flatMap((s) => (s.kind === 'observation' ? [[s.callId, s.content] as const] : [])));
    for (const step of turn.steps) {
      if (step.kind !== 'call') continue;
      const run = step.calls.filter((c) => observation.get(c.id) !== refusal(c.name));
      steps.push(await harness.toCalls(run.map((c) => ({ name: c.name, arguments: (c.arguments ?? {}) as Record<string, unknown> }))));
    }
    out.push(steps);
  }
  return out;
}

/** A record's menu under an arm: its functions (the official menu), shaped by the space. */
export function recordArmMenu(
  entry: BfclEntry,
  docs: Readonly<Record<string, readonly BfclDoc[]>>,
  space: readonly string[] | 'all',
  form: BfclMenuForm,
): BfclArmMenu {
  const tools: ToolDef[] = recordMenu(entry, docs);
  return bfclArmMenu(tools, space, form);
}

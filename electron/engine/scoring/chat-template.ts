// Trace turn → token sequence. A model with a chat template renders through node-llama-cpp's chat
// wrapper for it (resolveChatWrapper: a specialised wrapper, else the GGUF's Jinja template); a model
// without one (the fixtures, base models) uses the plain transcript. Dates some wrappers stamp into
// the system prompt are switched off: the same trace must render to the same tokens every day. Thinking
// is off wherever the wrapper has a switch for it (paper B.2, §4.1); thinkingState says where it has none.
import {
  DeepSeekChatWrapper,
  Gemma4ChatWrapper,
  HarmonyChatWrapper,
  JinjaTemplateChatWrapper,
  LlamaText,
  MuseChatWrapper,
  QwenChatWrapper,
  resolveChatWrapper,
  SeedChatWrapper,
  type ChatWrapper,
  type LlamaModel,
  type ResolveChatWrapperOptions,
  type Token,
  type Tokenizer,
} from 'node-llama-cpp';
import type { ToolCall, Trace } from '../../../shared/trace/schema';
import { targetCall } from '../../../shared/trace/target';
import { turnChatHistory } from './chat-history';
import { plainCallTarget, plainTranscript } from './plain-format';
import { ExpectedError } from '../../../shared/api/errors';

export type RenderFormat = 'auto' | 'plain' | 'template';

export interface TraceRenderer {
  /** 'plain' or the chat wrapper's name (recorded with the scores). */
  readonly format: string;
  /** Tokens of turn `turnIndex`'s context followed by `answerText` (the frozen answer or a prefix of it).
   * For a turn whose target is a call, the context ends before that call. */
  render(trace: Trace, turnIndex: number, answerText: string): Token[];
  /** Tokens of the context of a turn whose target is a call, followed by that call: its text, then its
   * calls as the model emits them when it calls (its wrapper's tool-call format). */
  renderCallTarget(trace: Trace, turnIndex: number): Token[];
  /** The tokens that end a text answer where the model stops: the chat format's end-of-turn token (else
   * end of sequence), the plain format's newline. Scored after the answer by the `answer-eot` span. */
  readonly endOfAnswer: Token[];
}

/** `tokenizer` defaults to the model's own; the remote backend passes the scoring server's
 * (remote/server-tokenizer.ts), so the same rendering yields the server's token ids. */
export function createRenderer(model: LlamaModel, format: RenderFormat = 'auto', tokenizer: Tokenizer = model.tokenizer): TraceRenderer {
  const hasTemplate = typeof model.fileInfo.metadata.tokenizer?.chat_template === 'string';
  if (format === 'plain' || (format === 'auto' && !hasTemplate)) return plainRenderer(model, tokenizer);
  if (format === 'template' && !hasTemplate) {
    throw new ExpectedError('MODEL_UNSUPPORTED', `${model.filename ?? 'the model'} has no chat template; score it with the plain format`);
  }
  const wrapper = resolveScoringChatWrapper(model);
  const template = model.fileInfo.metadata.tokenizer?.chat_template;
  // The format is recorded in score run keys: a thinking-off rendering is a different rendering.
  const thinking = thinkingState(wrapper, typeof template === 'string' ? template : undefined);
  return chatRenderer(model, wrapper, thinking.state === 'off' ? `${wrapper.wrapperName}+no-thinking` : wrapper.wrapperName, tokenizer);
}

/** The wrapper scoring and serving render with. The settings also decide which wrapper matches: a
 * template whose enable_thinking=false rendering differs from a specialised wrapper's is rendered by
 * the Jinja wrapper, with the switch off. */
export function resolveScoringChatWrapper(model: LlamaModel): ChatWrapper {
  const template = model.fileInfo.metadata.tokenizer?.chat_template;
  return resolveChatWrapper(model, {
    warningLogs: false,
    customWrapperSettings: scoringWrapperSettings(typeof template === 'string' ? template : undefined),
  });
}

/** A chat template that can think (Qwen3-style `enable_thinking`, `<think>` blocks). */
export function templateThinks(template: string | undefined): boolean {
  return template !== undefined && /enable_thinking|<think>/.test(template);
}

/**
 * Wrapper settings for scoring and serving: no dates stamped into system prompts, and thinking off
 * wherever the wrapper has a switch (paper B.2, §4.1: every model runs with thinking disabled): Gemma 4
 * without its <|think|> marker, Seed with a thinking budget of 0, the Qwen wrapper of a thinking
 * template opening the answer with an empty think block, a thinking Jinja template with
 * enable_thinking=false. Harmony (gpt-oss) and Muse have no off switch: their reasoning is set to the
 * least they take (low); thinkingState reports them.
 */
export function scoringWrapperSettings(template: string | undefined): ResolveChatWrapperOptions['customWrapperSettings'] {
  return {
    'llama3.1': { todayDate: null, cuttingKnowledgeDate: null },
    'llama3.2-lightweight': { todayDate: null, cuttingKnowledgeDate: null },
    harmony: { todayDate: null, cuttingKnowledgeDate: null, reasoningEffort: 'low' },
    muse: { todayDate: null, reasoningStrength: 'low' },
    gemma4: { reasoning: false },
    seed: { thinkingBudget: 0 },
    ...(templateThinks(template) ? { qwen: { thoughts: 'discourage' as const }, jinjaTemplate: { template: template!, reasoning: false } } : {}),
  };
}

/** Whether a model's rendering thinks: 'none' (the format has no thinking), 'off' (turned off), 'cannot' (no switch). */
export type ThinkingSwitch = 'none' | 'off' | 'cannot';
export interface ThinkingState {
  state: ThinkingSwitch;
  /** How it was turned off, or why it cannot be. */
  note: string;
}

/** What the resolved wrapper (with scoringWrapperSettings applied) does about thinking. */
export function thinkingState(wrapper: ChatWrapper, template: string | undefined): ThinkingState {
  if (wrapper instanceof Gemma4ChatWrapper)
    return wrapper.reasoning ? { state: 'cannot', note: 'Gemma 4 reasoning is on' } : { state: 'off', note: 'Gemma 4 reasoning off (no <|think|> marker)' };
  if (wrapper instanceof SeedChatWrapper)
    return wrapper.thinkingBudget === 0
      ? { state: 'off', note: 'Seed thinking budget 0 (its empty thought opens the answer)' }
      : { state: 'cannot', note: 'Seed thinking budget is not 0' };
  if (wrapper instanceof HarmonyChatWrapper)
    return { state: 'cannot', note: `gpt-oss (harmony) always reasons: no off switch; reasoning effort ${wrapper.reasoningEffort ?? 'default'}` };
  if (wrapper instanceof MuseChatWrapper)
    return { state: 'cannot', note: `Muse always reasons: no off switch; reasoning strength ${wrapper.reasoningStrength}` };
  if (wrapper instanceof DeepSeekChatWrapper) return { state: 'cannot', note: 'the DeepSeek (R1) format has no off switch for its <think> block' };
  if (wrapper instanceof QwenChatWrapper) {
    if (!templateThinks(template)) return { state: 'none', note: 'the template does not think' };
    return wrapper.thoughts === 'discourage'
      ? { state: 'off', note: 'an empty <think></think> block opens the answer' }
      : { state: 'cannot', note: `Qwen thoughts "${wrapper.thoughts}"` };
  }
  if (wrapper instanceof JinjaTemplateChatWrapper) {
    if (!templateThinks(template)) return { state: 'none', note: 'the template does not think' };
    if (template!.includes('enable_thinking') && wrapper.reasoning === false) return { state: 'off', note: 'the Jinja template with enable_thinking=false' };
    return { state: 'cannot', note: 'the Jinja template thinks (<think>) and has no enable_thinking switch' };
  }
  return templateThinks(template)
    ? { state: 'cannot', note: `the template thinks but node-llama-cpp's ${wrapper.wrapperName} wrapper has no thinking switch` }
    : { state: 'none', note: 'the format has no thinking' };
}

export function plainRenderer(model: LlamaModel, tokenizer: Tokenizer = model.tokenizer): TraceRenderer {
  const bos = model.tokens.shouldPrependBosToken && model.tokens.bos !== null ? [model.tokens.bos] : [];
  return {
    format: 'plain',
    render: (trace, turnIndex, answerText) => [...bos, ...tokenizer(plainTranscript(trace, turnIndex, answerText), false)],
    renderCallTarget: (trace, turnIndex) => [...bos, ...tokenizer(plainCallTarget(trace, turnIndex), false)],
    endOfAnswer: [...tokenizer('\n', false)],
  };
}

export function chatRenderer(model: LlamaModel, wrapper: ChatWrapper, format = wrapper.wrapperName, tokenizer: Tokenizer = model.tokenizer): TraceRenderer {
  const context = (trace: Trace, turnIndex: number, answerText: string): LlamaText => {
    const { history, functions } = turnChatHistory(trace, turnIndex, answerText);
    return wrapper.generateContextState({ chatHistory: history, availableFunctions: functions }).contextText;
  };
  const end = model.tokens.eot ?? model.tokens.eos;
  return {
    format,
    endOfAnswer: end === null ? [] : [end],
    render: (trace, turnIndex, answerText) => context(trace, turnIndex, answerText).tokenize(tokenizer),
    renderCallTarget: (trace, turnIndex) => {
      const step = targetCall(trace.turns[turnIndex]!)?.step;
      if (!step) throw new Error(`trace "${trace.id}" turn ${turnIndex} has no call target`);
      // The response is open (it is the last item), so this is the text the model continues from when it
      // calls: what follows is what it emits, exactly as node-llama-cpp's own generation renders it.
      return LlamaText([context(trace, turnIndex, step.text ?? ''), callSection(wrapper, step.calls)]).tokenize(tokenizer);
    },
  };
}

/**
 * The calls of one assistant message as the model emits them, in its wrapper's tool-call format: the
 * calls section's prefix, each call (prefix, name, parameters, suffix) and the separator between
 * calls. What comes after — the section suffix (the end of the turn) and the results — is not part of
 * the call, as the end of the turn is not part of a text answer.
 */
export function callSection(wrapper: ChatWrapper, calls: readonly ToolCall[]): LlamaText {
  const rendered = calls.map((c) => wrapper.generateFunctionCall(c.name, c.arguments ?? {}));
  const parallel = wrapper.settings.functions.parallelism?.call;
  if (!parallel) return LlamaText(rendered);
  return LlamaText([parallel.sectionPrefix ?? '', LlamaText.joinValues(parallel.betweenCalls ?? '', rendered)]);
}

// Trace turn → token sequence. A model with a chat template renders through node-llama-cpp's chat
// wrapper for it (resolveChatWrapper: a specialised wrapper, else the GGUF's Jinja template); a model
// without one (the fixtures, base models) uses the plain transcript. Dates some wrappers stamp into
// the system prompt are switched off: the same trace must render to the same tokens every day.
import { LlamaText, resolveChatWrapper, type ChatWrapper, type LlamaModel, type ResolveChatWrapperOptions, type Token, type Tokenizer } from 'node-llama-cpp';
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
  return chatRenderer(
    model,
    wrapper,
    templateThinks(typeof template === 'string' ? template : undefined) ? `${wrapper.wrapperName}+no-thinking` : wrapper.wrapperName,
    tokenizer,
  );
}

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
 * where the template has it (paper B.2 serves Qwen3/Qwen3.5 with thinking disabled): the Qwen wrapper
 * then opens the answer with an empty think block, and a Jinja template gets enable_thinking=false.
 */
export function scoringWrapperSettings(template: string | undefined): ResolveChatWrapperOptions['customWrapperSettings'] {
  return {
    'llama3.1': { todayDate: null, cuttingKnowledgeDate: null },
    'llama3.2-lightweight': { todayDate: null, cuttingKnowledgeDate: null },
    harmony: { todayDate: null, cuttingKnowledgeDate: null },
    ...(templateThinks(template) ? { qwen: { thoughts: 'discourage' as const }, jinjaTemplate: { template: template!, reasoning: false } } : {}),
  };
}

export function plainRenderer(model: LlamaModel, tokenizer: Tokenizer = model.tokenizer): TraceRenderer {
  const bos = model.tokens.shouldPrependBosToken && model.tokens.bos !== null ? [model.tokens.bos] : [];
  return {
    format: 'plain',
    render: (trace, turnIndex, answerText) => [...bos, ...tokenizer(plainTranscript(trace, turnIndex, answerText), false)],
    renderCallTarget: (trace, turnIndex) => [...bos, ...tokenizer(plainCallTarget(trace, turnIndex), false)],
  };
}

export function chatRenderer(model: LlamaModel, wrapper: ChatWrapper, format = wrapper.wrapperName, tokenizer: Tokenizer = model.tokenizer): TraceRenderer {
  const context = (trace: Trace, turnIndex: number, answerText: string): LlamaText => {
    const { history, functions } = turnChatHistory(trace, turnIndex, answerText);
    return wrapper.generateContextState({ chatHistory: history, availableFunctions: functions }).contextText;
  };
  return {
    format,
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

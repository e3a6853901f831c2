// Trace turn → token sequence. A model with a chat template renders through node-llama-cpp's chat
// wrapper for it (resolveChatWrapper: a specialised wrapper, else the GGUF's Jinja template); a model
// without one (the fixtures, base models) uses the plain transcript. Dates some wrappers stamp into
// the system prompt are switched off: the same trace must render to the same tokens every day.
import { resolveChatWrapper, type ChatWrapper, type LlamaModel, type ResolveChatWrapperOptions, type Token, type Tokenizer } from 'node-llama-cpp';
import type { Trace } from '../../../shared/trace/schema';
import { turnChatHistory } from './chat-history';
import { plainTranscript } from './plain-format';
import { ExpectedError } from '../../../shared/api/errors';

export type RenderFormat = 'auto' | 'plain' | 'template';

export interface TraceRenderer {
  /** 'plain' or the chat wrapper's name (recorded with the scores). */
  readonly format: string;
  /** Tokens of turn `turnIndex`'s context followed by `answerText` (the frozen answer or a prefix of it). */
  render(trace: Trace, turnIndex: number, answerText: string): Token[];
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
  };
}

export function chatRenderer(model: LlamaModel, wrapper: ChatWrapper, format = wrapper.wrapperName, tokenizer: Tokenizer = model.tokenizer): TraceRenderer {
  return {
    format,
    render: (trace, turnIndex, answerText) => {
      const { history, functions } = turnChatHistory(trace, turnIndex, answerText);
      const { contextText } = wrapper.generateContextState({ chatHistory: history, availableFunctions: functions });
      return contextText.tokenize(tokenizer);
    },
  };
}

// Trace turn → token sequence. A model with a chat template renders through node-llama-cpp's chat
// wrapper for it (resolveChatWrapper: a specialised wrapper, else the GGUF's Jinja template); a model
// without one (the fixtures, base models) uses the plain transcript. Dates some wrappers stamp into
// the system prompt are switched off: the same trace must render to the same tokens every day.
import { resolveChatWrapper, type ChatWrapper, type LlamaModel, type Token } from 'node-llama-cpp';
import type { Trace } from '../../../shared/trace/schema';
import { turnChatHistory } from './chat-history';
import { plainTranscript } from './plain-format';

export type RenderFormat = 'auto' | 'plain' | 'template';

export interface TraceRenderer {
  /** 'plain' or the chat wrapper's name (recorded with the scores). */
  readonly format: string;
  /** Tokens of turn `turnIndex`'s context followed by `answerText` (the frozen answer or a prefix of it). */
  render(trace: Trace, turnIndex: number, answerText: string): Token[];
}

export function createRenderer(model: LlamaModel, format: RenderFormat = 'auto'): TraceRenderer {
  const hasTemplate = typeof model.fileInfo.metadata.tokenizer?.chat_template === 'string';
  if (format === 'plain' || (format === 'auto' && !hasTemplate)) return plainRenderer(model);
  if (format === 'template' && !hasTemplate) {
    throw Object.assign(new Error(`${model.filename ?? 'the model'} has no chat template; score it with the plain format`), { code: 'MODEL_UNSUPPORTED' });
  }
  return chatRenderer(model, resolveScoringChatWrapper(model));
}

export function resolveScoringChatWrapper(model: LlamaModel): ChatWrapper {
  return resolveChatWrapper(model, {
    warningLogs: false,
    customWrapperSettings: {
      'llama3.1': { todayDate: null, cuttingKnowledgeDate: null },
      'llama3.2-lightweight': { todayDate: null, cuttingKnowledgeDate: null },
      harmony: { todayDate: null, cuttingKnowledgeDate: null },
    },
  });
}

export function plainRenderer(model: LlamaModel): TraceRenderer {
  const bos = model.tokens.shouldPrependBosToken && model.tokens.bos !== null ? [model.tokens.bos] : [];
  return {
    format: 'plain',
    render: (trace, turnIndex, answerText) => [...bos, ...model.tokenize(plainTranscript(trace, turnIndex, answerText), false)],
  };
}

export function chatRenderer(model: LlamaModel, wrapper: ChatWrapper): TraceRenderer {
  return {
    format: wrapper.wrapperName,
    render: (trace, turnIndex, answerText) => {
      const { history, functions } = turnChatHistory(trace, turnIndex, answerText);
      const { contextText } = wrapper.generateContextState({ chatHistory: history, availableFunctions: functions });
      return contextText.tokenize(model.tokenizer);
    },
  };
}

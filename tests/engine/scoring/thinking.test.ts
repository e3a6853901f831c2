// Thinking off for every template that has a switch (paper B.2, §4.1): the settings scoring and serving
// render with, and the strings node-llama-cpp's wrappers render under them (constructed directly, as
// resolveChatWrapper builds them for a model whose template they match; no model file needed).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getLlama, resolveChatWrapper, type ChatWrapper } from 'node-llama-cpp';
import { createRenderer, scoringWrapperSettings, templateThinks, thinkingState } from '../../../electron/engine/scoring/chat-template';
import { templatedModel, THINKING_CHATML_TEMPLATE } from '../fixtures';
import { turnChatHistory } from '../../../electron/engine/scoring/chat-history';
import { CHATML_TEMPLATE } from '../../../electron/engine/gguf/fixture-models';
import type { Trace } from '../../../shared/trace/schema';

const QWEN3_LIKE = "{%- if enable_thinking is defined and enable_thinking is false %}{{- '<think>\\n\\n</think>\\n\\n' }}{%- endif %}";

const trace: Trace = {
  v: 1,
  id: 'think',
  system: 'Be brief.',
  tools: [{ name: 'Calc', description: 'Compute.' }],
  turns: [{ request: 'Sum 2+2?', steps: [], answer: '4' }],
};

type WrapperType = 'gemma4' | 'harmony' | 'seed' | 'muse' | 'deepSeek' | 'qwen' | 'chatML';

/** The wrapper of `type` as scoring resolves it (our settings for that type applied). */
function wrapper(type: WrapperType, template?: string): ChatWrapper {
  return resolveChatWrapper({ type, customWrapperSettings: scoringWrapperSettings(template), warningLogs: false })!;
}

/** The text the wrapper renders for the trace's turn with its frozen answer (special tokens spelled out). */
function rendered(w: ChatWrapper): string {
  const { history, functions } = turnChatHistory(trace, 0, trace.turns[0]!.answer);
  return w.generateContextState({ chatHistory: history, availableFunctions: functions }).contextText.toString();
}

describe('thinking templates', () => {
  it('are told apart from ordinary ones', () => {
    expect(templateThinks(QWEN3_LIKE)).toBe(true);
    expect(templateThinks('{{ "<think>" }}')).toBe(true);
    expect(templateThinks(CHATML_TEMPLATE)).toBe(false);
    expect(templateThinks(undefined)).toBe(false);
  });

  it("get the Qwen wrapper's discourage setting and enable_thinking=false for Jinja; others keep their rendering", () => {
    const thinking = scoringWrapperSettings(QWEN3_LIKE)!;
    expect(thinking.qwen).toEqual({ thoughts: 'discourage' });
    expect(thinking.jinjaTemplate).toEqual({ template: QWEN3_LIKE, reasoning: false });
    const plain = scoringWrapperSettings(CHATML_TEMPLATE)!;
    expect(plain.qwen).toBeUndefined();
    expect(plain.jinjaTemplate).toBeUndefined();
    // Dates are never stamped into a system prompt: the same trace renders the same every day.
    expect(plain['llama3.1']).toEqual({ todayDate: null, cuttingKnowledgeDate: null });
  });
});

describe('the rendered string with thinking off', () => {
  it('Gemma 4: no <|think|> marker before the system text (the wrapper puts one there by default)', () => {
    const text = rendered(wrapper('gemma4'));
    expect(text).toContain('<|turn>system\nBe brief.');
    expect(text).not.toContain('<|think|>');
    expect(text.endsWith('<|turn>user\nSum 2+2?<turn|>\n<|turn>model\n4')).toBe(true);
    expect(rendered(resolveChatWrapper({ type: 'gemma4', warningLogs: false })!)).toContain('<|think|>\nBe brief.');
    expect(thinkingState(wrapper('gemma4'), undefined)).toMatchObject({ state: 'off' });
  });

  it('Qwen 3 (a thinking template): an empty think block opens the answer', () => {
    const text = rendered(wrapper('qwen', QWEN3_LIKE));
    expect(text.endsWith('<|im_start|>assistant\n<think>\n\n</think>\n\n4')).toBe(true);
    expect(thinkingState(wrapper('qwen', QWEN3_LIKE), QWEN3_LIKE)).toMatchObject({ state: 'off' });
    // Qwen 2.5's template does not think: nothing is added to its rendering.
    expect(rendered(wrapper('qwen', CHATML_TEMPLATE)).endsWith('<|im_start|>assistant\n4')).toBe(true);
    expect(thinkingState(wrapper('qwen', CHATML_TEMPLATE), CHATML_TEMPLATE).state).toBe('none');
  });

  it('Seed: a thinking budget of 0, told in the system turn and as the empty thought that opens the answer', () => {
    const text = rendered(wrapper('seed'));
    expect(text).toContain('your thinking budget is 0');
    expect(text).toContain('<seed:bos>assistant\n<seed:think>\n<seed:cot_budget_reflect>The current thinking budget is 0');
    expect(thinkingState(wrapper('seed'), undefined)).toMatchObject({ state: 'off' });
  });

  it('harmony (gpt-oss) cannot turn reasoning off: it gets the least reasoning effort, and says so', () => {
    const text = rendered(wrapper('harmony'));
    expect(text).toContain('Reasoning: low');
    expect(text).not.toContain('Reasoning: medium');
    expect(text).not.toMatch(/Current date|Knowledge cutoff/);
    expect(thinkingState(wrapper('harmony'), undefined)).toEqual({ state: 'cannot', note: expect.stringContaining('no off switch') });
  });

  it('Muse and DeepSeek have no switch either; formats without thinking say none', () => {
    expect(rendered(wrapper('muse'))).toContain('Reasoning strength: low.');
    expect(thinkingState(wrapper('muse'), undefined).state).toBe('cannot');
    expect(thinkingState(wrapper('deepSeek'), undefined).state).toBe('cannot');
    expect(thinkingState(wrapper('chatML'), CHATML_TEMPLATE).state).toBe('none');
  });
});

describe('a ChatML template with a thinking switch', () => {
  it('is told apart from ChatML by its enable_thinking=false rendering and rendered through it: the answer opens with the empty think block', async () => {
    const path = templatedModel(join(mkdtempSync(join(tmpdir(), 'lots-think-')), 'switch.gguf'), THINKING_CHATML_TEMPLATE);
    const llama = await getLlama({ gpu: false, build: 'never' });
    const model = await llama.loadModel({ modelPath: path });
    try {
      // Resolved without the switch, it matches plain ChatML (thinking at the template's default).
      expect(resolveChatWrapper(model, { warningLogs: false }).wrapperName).toBe('ChatML');
      const renderer = createRenderer(model);
      expect(renderer.format).toBe('JinjaTemplate+no-thinking');
      const text = model.detokenize(renderer.render(trace, 0, '4'), true);
      expect(text.endsWith('<|im_start|>assistant\n<think>\n\n</think>\n\n4')).toBe(true);
    } finally {
      await model.dispose();
      rmSync(dirname(path), { recursive: true, force: true });
    }
  });
});

// Thinking off for templates that think (paper B.2): the settings scoring and serving render with.
import { describe, expect, it } from 'vitest';
import { scoringWrapperSettings, templateThinks } from '../../../electron/engine/scoring/chat-template';
import { CHATML_TEMPLATE } from '../../../electron/engine/gguf/fixture-models';

const QWEN3_LIKE = "{%- if enable_thinking is defined and enable_thinking is false %}{{- '<think>\\n\\n</think>\\n\\n' }}{%- endif %}";

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

// A trace served with deferred tools renders them for the model in both of the engine's formats: the plain
// transcript (models without a chat template) and the chat history (the model's own template).
import { describe, expect, it } from 'vitest';
import { DEFERRED_HEADER } from '../../../shared/benchmark/deferred';
import { instantiate } from '../../../shared/benchmark/instance';
import { buildBenchTrace } from '../../../shared/benchmark/trace';
import { turnChatHistory } from '../../../electron/engine/scoring/chat-history';
import { plainTranscript } from '../../../electron/engine/scoring/plain-format';

describe('deferred tools as the model reads them', () => {
  const instance = instantiate('0', 'fx_settle', 9);
  const served = buildBenchTrace(instance, { menu: ['ExchangeRate', 'Calculator'], deferred: ['CurrencyConvert'], registry: 15, split: 'eval' });
  const bare = buildBenchTrace(instance, { menu: ['ExchangeRate', 'Calculator'], registry: 15, split: 'eval' });

  it('the plain transcript lists them after the menu, before the request', () => {
    const text = plainTranscript(served, 0, '');
    const at = text.indexOf(DEFERRED_HEADER);
    expect(at).toBeGreaterThan(0);
    expect(text.slice(at)).toMatch(/^[^\n]+\n- CurrencyConvert: indicative currency conversion\n\nUser: /);
    expect(plainTranscript(bare, 0, '')).not.toContain(DEFERRED_HEADER);
  });

  it('the chat history puts them in the system message, after the inline menu', () => {
    const system = turnChatHistory(served, 0, '').history[0];
    expect(system).toMatchObject({ type: 'system' });
    const text = (system as { text: string }).text;
    expect(text.indexOf('Tools:\n- ExchangeRate')).toBeLessThan(text.indexOf(DEFERRED_HEADER));
    expect(text.endsWith('- CurrencyConvert: indicative currency conversion')).toBe(true);
    expect((turnChatHistory(bare, 0, '').history[0] as { text: string }).text).not.toContain(DEFERRED_HEADER);
  });
});

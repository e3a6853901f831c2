// Completions kept on disk (electron/engine/benchmark/generation-cache.ts): what a long selection step
// (Tool2Vec's queries) asked the model survives a stop, per model, and a torn last line costs one answer.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedGenerations } from '../../../electron/engine/benchmark/generation-cache';

const dir = mkdtempSync(join(tmpdir(), 'lots-gencache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A model that answers with the prompt reversed, counting its calls. */
function model(): { calls: string[]; generate: (p: string, o?: { maxTokens?: number }) => Promise<{ text: string; promptTokens: number }> } {
  const calls: string[] = [];
  return {
    calls,
    generate: async (prompt, o) => {
      calls.push(`${o?.maxTokens ?? '-'}:${prompt}`);
      return { text: [...prompt].reverse().join(''), promptTokens: prompt.length };
    },
  };
}

describe('cachedGenerations', () => {
  it('asks the model once per (limit, prompt) and answers a later run from the file', async () => {
    const path = join(dir, 'a.jsonl');
    const first = model();
    const cache = cachedGenerations(path, 'hash-a', first.generate);
    expect(await cache.generate('abc', { maxTokens: 8 })).toEqual({ text: 'cba', promptTokens: 3 });
    expect(await cache.generate('abc', { maxTokens: 8 })).toEqual({ text: 'cba', promptTokens: 3 });
    await cache.generate('abc', { maxTokens: 9 });
    await cache.generate('xy');
    expect(first.calls).toEqual(['8:abc', '9:abc', '-:xy']);
    expect(cache.counts()).toEqual({ reused: 1, generated: 3 });
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(3);

    const second = model();
    const again = cachedGenerations(path, 'hash-a', second.generate);
    expect(await again.generate('abc', { maxTokens: 9 })).toEqual({ text: 'cba', promptTokens: 3 });
    expect(await again.generate('xy')).toEqual({ text: 'yx', promptTokens: 2 });
    expect(second.calls).toEqual([]);
    expect(again.counts()).toEqual({ reused: 2, generated: 0 });
  });

  it("never answers one model's prompt with another model's completion", async () => {
    const path = join(dir, 'b.jsonl');
    await cachedGenerations(path, 'hash-a', model().generate).generate('p', { maxTokens: 4 });
    const other = model();
    await cachedGenerations(path, 'hash-b', other.generate).generate('p', { maxTokens: 4 });
    expect(other.calls).toEqual(['4:p']);
  });

  it('skips a torn last line with a warning naming the file and line, and asks the model for that one again', async () => {
    const path = join(dir, 'c.jsonl');
    await cachedGenerations(path, 'h', model().generate).generate('kept', { maxTokens: 4 });
    appendFileSync(path, '{"model":"h","maxTokens":4,"prompt":"torn","te');
    const warnings: string[] = [];
    const m = model();
    const cache = cachedGenerations(path, 'h', m.generate, (w) => warnings.push(w));
    expect(warnings.join('\n')).toMatch(/c\.jsonl: line 2: incomplete last line/);
    await cache.generate('kept', { maxTokens: 4 });
    await cache.generate('torn', { maxTokens: 4 });
    expect(m.calls).toEqual(['4:torn']);
    // The append cut the torn tail: every line of the file reads.
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { prompt: string }).prompt)).toEqual(['kept', 'torn']);
  });
});

// Completions kept on disk: a selection method's greedy generations (Tool2Vec's queries) written to a JSONL
// file as each one finishes, keyed by the model file's hash, the token limit and the prompt, so a long run
// that is stopped (even with kill -9) starts again where it was and never asks the model twice.
import { existsSync } from 'node:fs';
import type { Generation, SelectionContext } from '../../../shared/selection/method';
import { appendLines } from '../store/atomic';
import { scanJsonlRecords } from '../store/jsonl';

interface CachedGeneration {
  model: string;
  maxTokens: number | null;
  prompt: string;
  text: string;
  promptTokens: number;
}

type Generate = NonNullable<SelectionContext['generate']>;

export interface GenerationCache {
  generate: Generate;
  /** Completions answered from the file, and generated now. */
  counts(): { reused: number; generated: number };
}

function parse(value: unknown): CachedGeneration | string {
  const v = value as Partial<CachedGeneration> | null;
  if (!v || typeof v !== 'object') return 'not an object';
  if (typeof v.model !== 'string' || typeof v.prompt !== 'string' || typeof v.text !== 'string') return 'no model, prompt or text';
  if ((typeof v.maxTokens !== 'number' && v.maxTokens !== null) || typeof v.promptTokens !== 'number') return 'no maxTokens or promptTokens';
  return v as CachedGeneration;
}

/** `generate` answered from `path` where it holds the same model, limit and prompt, else by `generate`,
 * whose answer is appended to `path` before it is returned. Unreadable lines are skipped (and said). */
export function cachedGenerations(path: string, modelHash: string, generate: Generate, warn: (line: string) => void = () => {}): GenerationCache {
  const key = (maxTokens: number | null | undefined, prompt: string): string => `${maxTokens ?? ''}\u0000${prompt}`;
  const kept = new Map<string, Generation>();
  if (existsSync(path)) {
    const { warnings } = scanJsonlRecords(path, 0, parse, (g) => {
      if (g.model === modelHash) kept.set(key(g.maxTokens, g.prompt), { text: g.text, promptTokens: g.promptTokens });
    });
    for (const w of warnings) warn(`${path}: ${w}`);
  }
  let reused = 0;
  let generated = 0;
  return {
    async generate(prompt, options = {}) {
      const hit = kept.get(key(options.maxTokens, prompt));
      if (hit) {
        reused++;
        return hit;
      }
      const out = await generate(prompt, options);
      appendLines(path, [JSON.stringify({ model: modelHash, maxTokens: options.maxTokens ?? null, prompt, text: out.text, promptTokens: out.promptTokens })]);
      kept.set(key(options.maxTokens, prompt), out);
      generated++;
      return out;
    },
    counts: () => ({ reused, generated }),
  };
}

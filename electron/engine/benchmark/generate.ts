// Greedy generation of one answer on a context sequence. The KV cache keeps the prefix the previous
// request shares with this one; everything after the first differing token is truncated (never a middle
// span: llama.cpp would shift later cells without recomputing them).
import type { LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';

export interface GenerateOptions {
  maxTokens: number;
  /** Stop at the first newline (the plain transcript ends a turn with one). */
  stopAtNewline: boolean;
  /** Keep special tokens' text in the answer (a tool-call marker such as Qwen's `<tool_call>`). */
  specialTokens?: boolean;
  /** A token that ends the answer without being part of it, besides end-of-generation tokens. */
  stopAt?: (token: Token) => boolean;
}

export async function generateGreedy(model: LlamaModel, sequence: LlamaContextSequence, prompt: readonly Token[], options: GenerateOptions): Promise<string> {
  return (await generateGreedyCounted(model, sequence, prompt, options)).text;
}

/** generateGreedy, also saying how many tokens were generated and how many prompt tokens the cache already held. */
export async function generateGreedyCounted(
  model: LlamaModel,
  sequence: LlamaContextSequence,
  prompt: readonly Token[],
  options: GenerateOptions,
): Promise<{ text: string; generated: number; reused: number }> {
  // The last prompt token is always evaluated again, so its logits are fresh for the first pick.
  const keep = commonPrefixLength(sequence.contextTokens, prompt.slice(0, -1));
  if (keep < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
  const generated: Token[] = [];
  let text = '';
  for await (const token of sequence.evaluate(prompt.slice(keep), { temperature: 0 })) {
    if (model.isEogToken(token) || options.stopAt?.(token)) break;
    generated.push(token);
    text = model.detokenize(generated, options.specialTokens ?? false);
    if (options.stopAtNewline && text.includes('\n')) break;
    if (generated.length >= options.maxTokens) break;
  }
  return { text: cleanAnswer(text, options.stopAtNewline), generated: generated.length, reused: keep };
}

/**
 * The recorded answer is what the model generated, cut at the newline that stopped it, without trailing
 * whitespace; leading text is kept verbatim so the frozen answer re-renders to the tokens the model
 * produced. An answer of only whitespace is kept as generated (it is what the model said).
 */
export function cleanAnswer(text: string, stopAtNewline: boolean): string {
  const newline = text.indexOf('\n');
  const cut = stopAtNewline && newline >= 0 ? text.slice(0, newline) : text;
  return cut.trimEnd() || cut;
}

function commonPrefixLength(a: readonly Token[], b: readonly Token[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

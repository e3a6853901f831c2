// Greedy generation of one answer on a context sequence. The KV cache keeps the prefix the previous
// request shares with this one, in whole decode batches only (reusableCells); everything after is truncated
// (never a middle span: llama.cpp would shift later cells without recomputing them).
//
// Why whole batches: llama.cpp's CPU results for a token depend, in the last bits, on how many tokens its
// decode batch held. Reusing any shared prefix made a reply depend on what the sequence served before: on
// composition seed 2 (Qwen2.5 1.5B), sensor_mean-0000 served alone gave "… = 544.0 / 6 = 90" and served
// after any of three other requests "… = 540.0 / 6 = 90" (2026-12-07). A prompt is evaluated in batches of
// the context's batch size from its first token; reusing only the cells of whole such batches means every
// cell was computed exactly as evaluating the prompt from nothing computes it, so a reply depends only on its
// prompt (and the model, engine and settings), not on the order requests reach a sequence.
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
  const batch = sequence.context.batchSize;
  const keep = reusableCells(sequence.contextTokens, wholeBatchCells.get(sequence) ?? 0, prompt, batch);
  if (keep < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
  // Until this prompt is evaluated, only the kept cells are known to be whole-batch cells.
  wholeBatchCells.set(sequence, keep);
  const generated: Token[] = [];
  let text = '';
  let evaluated = false;
  for await (const token of sequence.evaluate(prompt.slice(keep), { temperature: 0 })) {
    if (!evaluated) {
      // The prompt went in batches of `batch` from `keep`, a multiple of it: its whole batches are reusable.
      wholeBatchCells.set(sequence, Math.floor(prompt.length / batch) * batch);
      evaluated = true;
    }
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

/** Per sequence: how many leading cells were computed in whole decode batches from cell 0 (a multiple of the
 * batch size). A sequence this module has not evaluated on has none. */
const wholeBatchCells = new WeakMap<LlamaContextSequence, number>();

/**
 * How many leading cells of a sequence a prompt can reuse: the prefix it shares with them, short of the
 * prompt's last token (evaluated again, so its logits are fresh for the first pick), cut down to whole
 * batches (`batch` tokens each) among the `whole` cells computed that way.
 */
export function reusableCells(cells: readonly Token[], whole: number, prompt: readonly Token[], batch: number): number {
  const shared = Math.min(commonPrefixLength(cells, prompt.slice(0, -1)), whole);
  return Math.floor(shared / batch) * batch;
}

function commonPrefixLength(a: readonly Token[], b: readonly Token[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

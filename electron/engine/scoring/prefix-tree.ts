// The least number of tokens any evaluation order could decode for a set of sequences: the number of
// nodes of their token trie (a shared prefix is decoded once, as if the KV cache could branch).
// Each sequence contributes tokens[0 .. end-1): the last scored token is predicted, never decoded.
import type { Token } from 'node-llama-cpp';

export class TokenTrie {
  private readonly root = new Map<Token, TrieNode>();
  private count = 0;

  /** Adds tokens[0 .. length) and returns how many of them the trie already held (the prefix an earlier
   * sequence shares): the tokens from there on are the new nodes. */
  add(tokens: readonly Token[], length = tokens.length): number {
    let level = this.root;
    let shared = length;
    for (let i = 0; i < length; i++) {
      let node = level.get(tokens[i]!);
      if (!node) {
        node = { children: new Map() };
        level.set(tokens[i]!, node);
        this.count++;
        shared = Math.min(shared, i);
      }
      level = node.children;
    }
    return shared;
  }

  /** Distinct prefixes added so far = tokens a perfectly branching cache would decode. */
  get size(): number {
    return this.count;
  }
}

interface TrieNode {
  children: Map<Token, TrieNode>;
}

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getLlama, readGgufFileInfo, type ControlledEvaluateInputItem, type Token } from 'node-llama-cpp';
import { gguf, writeGguf } from '../../../electron/engine/gguf/writer';
import { byteVocabulary } from '../../../electron/engine/gguf/vocabulary';
import { evidenceCopyModel, randomChatModel, randomModel } from '../fixtures';

const dir = mkdtempSync(join(tmpdir(), 'lots-gguf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('GGUF v3 writer', () => {
  it('writes a header, metadata and aligned F32 tensors that node-llama-cpp reads back', async () => {
    const path = join(dir, 'tiny.gguf');
    const data = new Float32Array([1, 2, 3, 4, 5, 6]);
    writeGguf(path, {
      metadata: [
        ['general.architecture', gguf.str('llama')],
        ['general.name', gguf.str('tiny')],
        ['test.count', gguf.u32(7)],
        ['test.flag', gguf.bool(true)],
        ['test.scale', gguf.f32(0.5)],
        ['test.words', gguf.strings(['a', 'bé', ''])],
        ['test.ids', gguf.i32s([-1, 2])],
      ],
      tensors: [
        { name: 'w', dims: [3, 2], data },
        { name: 'v', dims: [1], data: new Float32Array([9]) },
      ],
    });
    const bytes = readFileSync(path);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('GGUF');
    expect(bytes.readUInt32LE(4)).toBe(3);
    const info = await readGgufFileInfo(path, { logWarnings: false });
    const md = info.metadata as unknown as Record<string, Record<string, unknown>>;
    expect(md.general!.name).toBe('tiny');
    expect(md.test).toMatchObject({ count: 7, flag: true, scale: 0.5, words: ['a', 'bé', ''], ids: [-1, 2] });
    expect(info.tensorInfo!.map((t) => [t.name, t.dimensions.map(Number), Number(t.offset) % 32])).toEqual([
      ['w', [3, 2], 0],
      ['v', [1], 0],
    ]);
    // The payload of "w" sits at data start + its offset, little-endian F32.
    const start = bytes.length - 32 - 32; // two tensors, each padded to 32 bytes
    expect(Array.from(new Float32Array(bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + start + 24)))).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('refuses a tensor whose data does not match its dimensions', () => {
    expect(() => writeGguf(join(dir, 'bad.gguf'), { metadata: [], tensors: [{ name: 'w', dims: [2, 2], data: new Float32Array(3) }] })).toThrow(
      /2×2 hold 4 values but data has 3/,
    );
  });

  it('maps byte b to token b in the GPT-2 byte encoding', () => {
    const v = byteVocabulary();
    expect(v.tokens[65]).toBe('A');
    expect(v.tokens[32]).toBe('Ġ'); // space is U+0120 in GPT-2's byte map
    expect(v.tokens[10]).toBe('Ċ');
    expect(v.special).toEqual({ '<|bos|>': 256, '<|endoftext|>': 257 });
    expect(byteVocabulary({ size: 300 }).tokens).toHaveLength(300);
  });
});

describe('fixture models', () => {
  it('load in llama.cpp and tokenize one byte per token', async () => {
    const llama = await getLlama({ gpu: false, build: 'never' });
    for (const path of [randomModel(), randomChatModel(), evidenceCopyModel()]) {
      const model = await llama.loadModel({ modelPath: path });
      try {
        const text = 'Calc: 4821\né';
        expect(model.tokenize(text, false)).toEqual([...Buffer.from(text, 'utf8')]);
        expect(model.detokenize(model.tokenize(text, false))).toBe(text);
        expect(model.tokens.bos).toBe(256);
      } finally {
        await model.dispose();
      }
    }
  });

  it('evidence-copy: the next-token distribution follows the context frequencies', async () => {
    const llama = await getLlama({ gpu: false, build: 'never' });
    const model = await llama.loadModel({ modelPath: evidenceCopyModel() });
    const context = await model.createContext({ contextSize: 256, threads: 1 });
    try {
      const sequence = context.getSequence();
      const text = 'xxxxxxxxyyyyz';
      const tokens = [256 as Token, ...model.tokenize(text, false)];
      const items: ControlledEvaluateInputItem[] = tokens.map((t, i) => (i === tokens.length - 1 ? [t, { generateNext: { probabilities: true } }] : t));
      const out = await sequence.controlledEvaluate(items);
      const p = out[tokens.length - 1]!.next.probabilities!;
      const [x, y, z, q] = ['x', 'y', 'z', 'q'].map((c) => p.get(c.charCodeAt(0) as Token)!);
      expect(x).toBeGreaterThan(y!);
      expect(y).toBeGreaterThan(z!);
      expect(z).toBeGreaterThan(q!); // q never occurred
    } finally {
      await context.dispose();
      await model.dispose();
    }
  });

  it('a corrupt file is refused by the reader', async () => {
    const path = join(dir, 'corrupt.gguf');
    writeFileSync(path, 'not a gguf file at all');
    await expect(readGgufFileInfo(path, { logWarnings: false })).rejects.toThrow();
  });
});

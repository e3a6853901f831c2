// Byte-level fuzz through the streaming reader: invalid UTF-8 (stray continuation bytes, truncated
// sequences, overlong encodings, Latin-1 text) and the JSON mutations, in files read from disk.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpora, mutate, MUTATIONS, rng } from '../../shared/importers/fuzz-corpus';
import { collect, tempDir } from './helpers';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const BAD_BYTES = [[0xff], [0xc3], [0xe2, 0x82], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0x80], [0xe9]];

describe.each(corpora().filter((c) => ['native', 'openai', 'anthropic', 'bfcl', 'gta', 'sharegpt', 'langfuse'].includes(c.format)))(
  'bytes fuzz: $format',
  ({ format, units }) => {
    it('reports every line with invalid UTF-8 or bad JSON on its line and keeps every good line', async () => {
      const rand = rng(0xb17e5 + format.length);
      const lines: Buffer[] = [];
      const expectBad = new Map<number, RegExp>();
      const goodIds: string[] = [];
      for (let i = 0; i < 1500; i++) {
        const uid = `${format}-${i}`;
        const [line] = units[i % units.length]!(uid);
        const roll = rand();
        if (i < 3 || roll < 0.3) {
          lines.push(Buffer.from(line!));
          goodIds.push(format === 'gta' ? `gta-${uid}` : uid);
        } else if (roll < 0.7) {
          const buf = Buffer.from(line!);
          const at = 1 + Math.floor(rand() * (buf.length - 2));
          lines.push(Buffer.concat([buf.subarray(0, at), Buffer.from(BAD_BYTES[Math.floor(rand() * BAD_BYTES.length)]!), buf.subarray(at)]));
          expectBad.set(lines.length, /not valid UTF-8/);
        } else {
          const kind = MUTATIONS[Math.floor(rand() * MUTATIONS.length)]!;
          for (const m of mutate(line!, kind, rand, { huge: 2 })) lines.push(Buffer.from(m));
        }
      }
      const path = join(tmp.dir, `${format}.jsonl`);
      writeFileSync(path, Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')])));
      const c = await collect(path, { displayName: `${format}.jsonl` });
      expect(c.summary.format).toBe(format);
      const errors = new Map(c.errors.map((e) => [e.line, e.message]));
      for (const [line, pattern] of expectBad) expect(errors.get(line)).toMatch(pattern);
      for (const e of c.errors) {
        expect(e.file).toBe(`${format}.jsonl`);
        expect(e.message).not.toMatch(/internal error/);
      }
      const ids = new Set(c.traces.map((t) => t.trace.id));
      for (const id of goodIds) expect(ids.has(id)).toBe(true);
      if (format !== 'langfuse') {
        const traceLines = new Set(c.traces.map((t) => t.line));
        lines.forEach((l, i) => {
          if (l.toString('utf8').trim()) expect(traceLines.has(i + 1) || errors.has(i + 1)).toBe(true);
        });
      }
    });
  },
);

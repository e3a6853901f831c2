// Issue 37 #21 / issue 38 item 4: a gzip file used to get encoding advice ("convert it with iconv") on
// every "line"; it is now read decompressed. Other archives and binary data get one message that says
// what the file is, never one per "line".
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/io';
import { collect, tempDir } from './helpers';

const tmp = tempDir('lots-compressed-');
afterAll(() => tmp.cleanup());

const REAL = join(__dirname, '..', '..', 'fixtures', 'real', 'tau-bench', 'gpt-4o-airline.slice.json');
const real = readFileSync(REAL);
const trajectories = (JSON.parse(real.toString('utf8')) as unknown[]).length;

describe('a gzip-compressed trace file', () => {
  it('is read decompressed, with the same traces as the plain file, and says so', async () => {
    const gz = join(tmp.dir, 'gpt-4o-airline.json.gz');
    writeFileSync(gz, gzipSync(real));
    const c = await collect(gz, { displayName: 'gpt-4o-airline.json.gz' });
    expect(c.errors).toEqual([]);
    expect(c.traces).toHaveLength(trajectories);
    expect(c.summary.compressed).toBe('gzip');
    expect(c.summary.format).toBe('tau');
    // The domain is read from the original name, not the temp copy's.
    expect(new Set(c.traces.map((t) => t.trace.task))).toEqual(new Set(['airline']));
    const r = await runCli(['import', gz, '--project', join(tmp.dir, 'p')]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('(gzip, decompressed)');
    expect(r.out + r.err).not.toMatch(/iconv|UTF-8/);
  });

  it('that is truncated says it does not decompress, once', async () => {
    const gz = join(tmp.dir, 'cut.jsonl.gz');
    const whole = gzipSync(real);
    writeFileSync(gz, whole.subarray(0, whole.length >> 1));
    const r = await runCli(['import', gz, '--project', join(tmp.dir, 'p2')]);
    expect(r.code).toBe(1 + 1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/gzip-compressed but does not decompress/);
  });
});

describe('binary data', () => {
  it('gets one message saying it is not text, not one per "line"', async () => {
    const bin = join(tmp.dir, 'blob.jsonl');
    writeFileSync(bin, randomBytes(2 * 1024 * 1024));
    const r = await runCli(['import', bin, '--project', join(tmp.dir, 'p3')]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/binary data, not text/);
    expect(r.err).not.toMatch(/iconv/);
  });

  it('a zip archive is named as one', async () => {
    const zip = join(tmp.dir, 'traces.zip');
    writeFileSync(zip, Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), randomBytes(4096)]));
    const r = await runCli(['import', zip, '--project', join(tmp.dir, 'p4')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/a zip archive; unzip it/);
  });
});

// Issue 13 #3: a project with a ~600 MB traces file could not be opened (`Cannot create a string longer
// than 0x1fffffe8 characters`): every JSONL file of a project was read into one string. Project files are
// now read line by line in fixed-size chunks, and the store keeps an index of each trace (its sidecar
// `NNNN.index`) instead of the traces. A 600 MB file is too slow for CI; the reader's chunk size is
// an option, so lines spanning chunk boundaries, CRLF, multi-byte characters cut by a chunk and a torn
// last line are tested with chunks of a few bytes. (The 600 MB run is measured by hand: issue 13.)
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../electron/engine/store';
import { readJsonlFrom, scanJsonl, type JsonlLine } from '../../electron/engine/store/jsonl';
import { makeLineTraces } from '../e2e/fixtures';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lots-large-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function linesOf(path: string, chunkBytes: number, offset = 0): { lines: JsonlLine[]; offset: number; warnings: string[] } {
  const lines: JsonlLine[] = [];
  const r = scanJsonl(path, offset, (l) => void lines.push(l), { chunkBytes });
  return { lines, offset: r.offset, warnings: r.warnings };
}

describe('the chunked JSONL reader', () => {
  const records = ['{"a":1}', '', '{"text":"ünïcödé — 漢字 🎉"}', '{"long":"' + 'x'.repeat(300) + '"}', '{"b":2}'];

  it('gives the same lines, byte ranges and offset for every chunk size, lines spanning chunks included', () => {
    const path = join(dir, 'f.jsonl');
    const body = records.map((r, i) => r + (i % 2 ? '\r\n' : '\n')).join('');
    writeFileSync(path, body);
    const buf = readFileSync(path);
    for (const chunk of [1, 2, 3, 5, 7, 64, 1 << 20]) {
      const { lines, offset, warnings } = linesOf(path, chunk);
      expect(
        lines.map((l) => l.text),
        `chunk ${chunk}`,
      ).toEqual(records);
      expect(lines.map((l) => l.line)).toEqual([1, 2, 3, 4, 5]);
      for (const l of lines) expect(buf.subarray(l.start, l.start + l.bytes).toString('utf8')).toBe(l.text); // CR not part of the line
      expect(offset).toBe(buf.length);
      expect(warnings).toEqual([]);
    }
  });

  it('leaves a torn last line unread, says so, and reads it once it is complete', () => {
    const path = join(dir, 'torn.jsonl');
    writeFileSync(path, '{"a":1}\n{"b":2}\n{"c":');
    for (const chunk of [1, 4, 1 << 20]) {
      const r = readJsonlFrom(path, 0, (v) => v as object, 1, { chunkBytes: chunk });
      expect(r.records).toEqual([{ a: 1 }, { b: 2 }]);
      expect(r.offset).toBe(16);
      expect(r.lines).toBe(2);
      expect(r.warnings).toEqual(['line 3: incomplete last line (an interrupted write); ignored']);
    }
    appendFileSync(path, '3}\n{"d":4}\n');
    const next = readJsonlFrom(path, 16, (v) => v as object, 3, { chunkBytes: 3 });
    expect(next.records).toEqual([{ c: 3 }, { d: 4 }]);
    expect(next.warnings).toEqual([]);
    expect(next.offset).toBe(statSync(path).size);
  });

  it('skips a line too long to become one string, with its number, and goes on', () => {
    const path = join(dir, 'long.jsonl');
    writeFileSync(path, `{"a":1}\n{"big":"${'y'.repeat(5000)}"}\n{"b":2}\n`);
    const lines: string[] = [];
    const r = scanJsonl(path, 0, (l) => void lines.push(l.text), { chunkBytes: 64, maxLineBytes: 1000 });
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(r.warnings).toEqual(['line 2: longer than 1000 bytes (5010); skipped']);
  });

  it('reports bad records with their line numbers and keeps the good ones', () => {
    const path = join(dir, 'bad.jsonl');
    writeFileSync(path, '{"a":1}\nnot json\n{"a":"x"}\n{"a":3}\n');
    const r = readJsonlFrom(path, 0, (v) => (typeof (v as { a: unknown }).a === 'number' ? (v as { a: number }) : 'a must be a number'), 1, { chunkBytes: 5 });
    expect(r.records).toEqual([{ a: 1 }, { a: 3 }]);
    expect(r.warnings).toEqual(['line 2: not valid JSON; record skipped', 'line 3: a must be a number; record skipped']);
  });
});

describe('the store keeps an index of its traces, not the traces', () => {
  function project(): { dir: string; traces: ReturnType<typeof makeLineTraces> } {
    const p = join(dir, 'p');
    const traces = [
      ...makeLineTraces({ task: 'alpha', requests: 50, tools: 8, exposed: 5, seed: 1 }),
      ...makeLineTraces({ task: 'beta', requests: 30, tools: 6, seed: 2 }),
    ];
    const store = ProjectStore.create(p);
    store.addTraces(traces, 'gen.jsonl');
    return { dir: p, traces };
  }

  it('opens from the sidecar index without parsing the traces file', () => {
    const { dir: p, traces } = project();
    const file = join(p, 'traces', '0001.jsonl');
    const original = readFileSync(file);
    // Same size, no trace in it: an open that parsed the file would find nothing.
    writeFileSync(file, Buffer.alloc(original.length, 0x20));
    const store = ProjectStore.open(p);
    expect(store.traceCount).toBe(traces.length);
    expect(store.warnings).toEqual([]);
    expect(store.traceTasks().get('beta-00003')).toBe('beta');
    // A trace read from a file that changed under the index is left out with a warning naming the file.
    expect(store.getTrace('alpha-00000')).toBeUndefined();
    expect(store.warnings[0]?.file).toBe(file);
    expect(store.warnings[0]?.message).toMatch(/trace "alpha-00000" is no longer where this project recorded it/);
    writeFileSync(file, original);
    expect(store.getTrace('alpha-00000')).toEqual(traces[0]);
  });

  it('without a sidecar (older projects) or with a damaged one, streams the traces file to the same index', () => {
    const { dir: p, traces } = project();
    const viaSidecar = ProjectStore.open(p);
    const sidecar = join(p, 'traces', '0001.index');
    const lines = readFileSync(sidecar, 'utf8').split('\n');
    for (const damage of [
      () => rmSync(sidecar),
      () => writeFileSync(sidecar, lines.slice(0, -5).join('\n')),
      () => writeFileSync(sidecar, lines[0]!.replace(/"bytes":\d+/, '"bytes":1') + '\n' + lines.slice(1).join('\n')),
    ]) {
      damage();
      const scanned = ProjectStore.open(p);
      expect(scanned.traceCount).toBe(traces.length);
      expect([...scanned.traceInfos()]).toEqual([...viaSidecar.traceInfos()]);
      for (const t of traces) expect(scanned.getTraceHash(t.id)).toBe(viaSidecar.getTraceHash(t.id));
      expect(scanned.listTraces()).toEqual(traces);
      writeFileSync(sidecar, lines.join('\n'));
    }
  });

  it('reads only the traces asked for, in import order, and the per-task facts without reading any', () => {
    const { dir: p, traces } = project();
    const store = ProjectStore.open(p);
    expect(store.listTraces((t) => t.task === 'beta')).toEqual(traces.filter((t) => t.task === 'beta'));
    const infos = [...store.traceInfos()];
    expect(infos.filter((i) => i.correct === false).length).toBe(traces.filter((t) => t.turns.some((u) => u.correct === false)).length);
    const alpha = infos.find((i) => i.id === 'alpha-00007')!;
    expect(alpha.menu.map((i) => store.toolDef(i))).toEqual(traces.find((t) => t.id === 'alpha-00007')!.tools);
  });
});

describe('lots route on a project larger than its heap', () => {
  // Before, `lots route` read every unlabelled trace into memory (its tool outputs too) to embed their
  // request texts: a 254 MB project peaked at 410 MB RSS and died under a 160 MB heap. It now keeps the
  // texts only. Here: about 80 MB of traces (large tool outputs, short requests) routed under a 64 MB heap.
  it('routes every unlabelled request under --max-old-space-size=64', () => {
    const p = join(dir, 'big');
    const store = ProjectStore.create(p);
    const pad = ' lorem ipsum dolor sit amet'.repeat(600);
    const templates = ['Book a flight to Oslo', 'Settle an invoice'];
    for (let f = 0; f < 4; f++) {
      const traces = makeLineTraces({ task: 'x', requests: 150, tools: 8, seed: f + 1 }).map(({ task: _, ...t }, i) => ({
        ...t,
        id: `f${f}-${i}`,
        turns: t.turns.map((u) => ({
          ...u,
          request: `${templates[i % 2]} ${u.request}`,
          steps: u.steps.map((s) => (s.kind === 'lines' ? { ...s, lines: s.lines.map((l) => ({ ...l, output: l.output + pad })) } : s)),
        })),
      }));
      store.addTraces(traces, `big-${f}.jsonl`);
    }
    const bytes = [1, 2, 3, 4].reduce((n, f) => n + statSync(join(p, 'traces', `000${f}.jsonl`)).size, 0);
    expect(bytes).toBeGreaterThan(75 * 1024 * 1024);
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
    const run = spawnSync(process.execPath, [join(root, 'bin/lots.mjs'), 'route', '--project', p, '--k', '2'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=64`.trim() },
      timeout: 240_000,
    });
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    expect(run.stdout).toContain('routed 600 unlabelled requests into 2 tasks');
    const routes = ProjectStore.open(p).readRoutes();
    expect(Object.keys(routes)).toHaveLength(600);
    // The two request templates are the two tasks.
    expect(new Set([0, 2, 4].map((i) => routes[`f0-${i}`]))).toHaveProperty('size', 1);
    expect(routes['f0-0']).not.toBe(routes['f0-1']);
  });
});

// Test helpers for the streaming reader: temp folders and collecting events.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTraceFile, type ReadEvent, type ReadOptions, type ReadSummary } from '../../../electron/engine/import';
import type { LineError } from '../../../shared/trace/validate';
import type { Trace } from '../../../shared/trace/schema';

export function tempDir(prefix = 'lots-import-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Collected {
  events: ReadEvent[];
  traces: Array<{ trace: Trace; line: number }>;
  errors: LineError[];
  summary: ReadSummary;
}

export async function collect(path: string, options: ReadOptions = {}): Promise<Collected> {
  const events: ReadEvent[] = [];
  for await (const e of readTraceFile(path, options)) events.push(e);
  const last = events[events.length - 1];
  if (!last || last.kind !== 'summary') throw new Error('the last event must be the summary');
  return {
    events,
    traces: events.flatMap((e) => (e.kind === 'trace' ? [{ trace: e.trace, line: e.line }] : [])),
    errors: events.flatMap((e) => (e.kind === 'error' ? [e.error] : [])),
    summary: last.summary,
  };
}

/** A small valid OpenAI chat record with a given id. */
export function chatRecord(id: string, extra = ''): string {
  return JSON.stringify({
    id,
    model: 'gpt-4o',
    tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
    messages: [
      { role: 'user', content: `Weather in Paris? ${extra}` },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: `${id}-c1`, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: `${id}-c1`, content: '18 C' },
      { role: 'assistant', content: 'It is 18 C.' },
    ],
  });
}

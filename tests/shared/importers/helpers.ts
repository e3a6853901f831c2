// Shared test helpers: read a fixture, import it, and look at a trace as (call → observation) pairs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importText, type SessionOptions, type TextImport } from '../../../shared/importers';
import type { Step, Trace } from '../../../shared/trace/schema';
import { checkTraceConsistency } from '../../../shared/trace/validate';

export const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'formats');

/** Real public files, kept in slices under tests/fixtures/real/<dir>/ with their source in SOURCE.md. */
export const REAL_FIXTURES = join(__dirname, '..', '..', 'fixtures', 'real');

export function readReal(dir: string, name: string): string {
  return readFileSync(join(REAL_FIXTURES, dir, name), 'utf8');
}

/** The records of a JSONL text, typed as the test reads them (it counts from them what the import must find). */
export function jsonLines<T>(text: string): T[] {
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);
}

export function fixturePath(name: string): string {
  return join(FIXTURES, name);
}

export function importFixture(name: string, options: SessionOptions = {}): TextImport {
  const path = fixturePath(name);
  return importText(readFileSync(path, 'utf8'), { file: name, sourcePath: path, ...options });
}

export function traces(r: TextImport): Trace[] {
  return r.traces.map((t) => t.trace);
}

export interface Pair {
  turn: number;
  call: string;
  args: unknown;
  content: string;
  pairing: string;
  isError?: boolean;
}

/** Every observation with the call it is paired to (by callId), in trace order. */
export function pairs(trace: Trace): Pair[] {
  const calls = new Map<string, { name: string; args: unknown }>();
  const out: Pair[] = [];
  trace.turns.forEach((turn, t) => {
    for (const s of turn.steps) {
      if (s.kind === 'call') for (const c of s.calls) calls.set(c.id, { name: c.name, args: c.arguments });
      if (s.kind === 'observation') {
        const call = calls.get(s.callId);
        if (!call) throw new Error(`observation ${s.callId} has no call`);
        if (call.name !== s.name) throw new Error(`observation ${s.callId} names ${s.name} but its call is ${call.name}`);
        const p: Pair = { turn: t, call: call.name, args: call.args, content: s.content, pairing: s.pairing };
        if (s.isError !== undefined) p.isError = s.isError;
        out.push(p);
      }
    }
  });
  return out;
}

/** Steps as short strings: `call get_weather+get_time`, `obs get_time`, `msg user`, `lines`. */
export function shape(steps: Step[]): string[] {
  return steps.map((s) => {
    if (s.kind === 'call') return `call ${s.calls.map((c) => c.name).join('+')}`;
    if (s.kind === 'observation') return `obs ${s.name}${s.isError ? '!' : ''}`;
    if (s.kind === 'message') return `msg ${s.role}`;
    return 'lines';
  });
}

export function expectConsistent(trace: Trace): void {
  const problem = checkTraceConsistency(trace);
  if (problem) throw new Error(problem);
}

// Reading a benchmark trace's tool lines back, for checks that do not reuse the generator's own math.
import type { Trace } from '../../../shared/trace/schema';

export function linesOf(trace: Trace): Map<string, string> {
  const step = trace.turns[0]!.steps.find((s) => s.kind === 'lines');
  return new Map(step && step.kind === 'lines' ? step.lines.map((l) => [l.tool, l.output]) : []);
}

export function line(trace: Trace, tool: string): string {
  const out = linesOf(trace).get(tool);
  if (out === undefined) throw new Error(`${trace.id} has no ${tool} line`);
  return out;
}

export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

// Parse and validate native JSONL lines with errors a user can act on: file:line: field: what is wrong.
import type { z } from 'zod';
import { TraceSchema, type Trace } from './schema';
import { callTargetProblem } from './target';

export interface LineError {
  file: string;
  line: number;
  message: string;
}

export type LineResult<T> = { ok: true; value: T } | { ok: false; error: LineError };

/** `file:line: message`, the one format every rejected record is reported in. */
export function formatLineError(e: LineError): string {
  return `${e.file}:${e.line}: ${e.message}`;
}

/** Render a zod issue path as `turns[0].steps[2].callId`. */
export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(record)';
}

export function describeZodError(error: z.ZodError, maxIssues = 3): string {
  const issues = error.issues.slice(0, maxIssues).map((i) => `${formatIssuePath(i.path)}: ${i.message}`);
  const more = error.issues.length > maxIssues ? ` (+${error.issues.length - maxIssues} more)` : '';
  return issues.join('; ') + more;
}

export function parseJsonLine(text: string, file: string, line: number): LineResult<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    return { ok: false, error: { file, line, message: `not valid JSON (${reason}); each line must be one JSON object` } };
  }
}

/** Validate one parsed value as a native trace, with cross-field checks the schema cannot express. */
export function validateTrace(value: unknown, file: string, line: number): LineResult<Trace> {
  const parsed = TraceSchema.safeParse(value);
  if (!parsed.success) return { ok: false, error: { file, line, message: describeZodError(parsed.error) } };
  const problem = checkTraceConsistency(parsed.data);
  if (problem) return { ok: false, error: { file, line, message: problem } };
  return { ok: true, value: parsed.data };
}

export function parseTraceLine(text: string, file: string, line: number): LineResult<Trace> {
  const json = parseJsonLine(text, file, line);
  if (!json.ok) return json;
  return validateTrace(json.value, file, line);
}

/** Call ids unique per trace, every observation paired to a call made before it, call targets well formed. */
export function checkTraceConsistency(trace: Trace): string | null {
  const seen = new Set<string>();
  for (let t = 0; t < trace.turns.length; t++) {
    const targetProblem = callTargetProblem(trace.turns[t]!);
    if (targetProblem) return `turns[${t}].target: ${targetProblem} (trace "${trace.id}")`;
    const steps = trace.turns[t]!.steps;
    for (let s = 0; s < steps.length; s++) {
      const step = steps[s]!;
      if (step.kind === 'call') {
        for (let c = 0; c < step.calls.length; c++) {
          const id = step.calls[c]!.id;
          if (seen.has(id))
            return `turns[${t}].steps[${s}].calls[${c}].id: call id "${id}" is used twice in trace "${trace.id}"; call ids must be unique within a trace`;
          seen.add(id);
        }
      } else if (step.kind === 'observation') {
        if (!seen.has(step.callId))
          return `turns[${t}].steps[${s}].callId: observation refers to call "${step.callId}", which no earlier call step in trace "${trace.id}" made`;
      }
    }
  }
  return null;
}

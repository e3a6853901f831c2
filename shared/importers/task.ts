// Task labels: the format's obvious field, or a dotted path the user names (`--task-field metadata.task`).
import { isObj, tryJson } from './values';

/**
 * Follow a dotted path through objects. At each level a flattened key that equals the rest of the path
 * (`"metadata.task"` as one attribute key) is accepted too, and a JSON string is looked into, because span
 * attributes store metadata both ways.
 */
export function lookupPath(value: unknown, path: string): unknown {
  const parts = path.split('.').filter((p) => p.length > 0);
  return walk(value, parts, 0);
}

function walk(value: unknown, parts: string[], depth: number): unknown {
  if (parts.length === 0) return value;
  if (depth > 32) return undefined;
  if (typeof value === 'string') {
    const t = value.trim();
    if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
    const parsed = tryJson(t);
    return parsed.ok ? walk(parsed.value, parts, depth + 1) : undefined;
  }
  if (Array.isArray(value)) {
    const i = Number(parts[0]);
    return Number.isInteger(i) && i >= 0 && i < value.length ? walk(value[i], parts.slice(1), depth + 1) : undefined;
  }
  if (!isObj(value)) return undefined;
  for (let n = parts.length; n >= 1; n--) {
    const key = parts.slice(0, n).join('.');
    if (Object.prototype.hasOwnProperty.call(value, key)) {
      const found = walk(value[key], parts.slice(n), depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** A usable label: a non-empty string (trimmed) or a finite number, else undefined. */
export function taskLabel(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return String(v);
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t.length > 0 && t.length <= 200 ? t : undefined;
}

/** The user's `taskField` wins over the format's own label; either may be absent. */
export function pickTask(sources: unknown[], taskField: string | undefined, own: unknown): string | undefined {
  if (taskField) {
    for (const s of sources) {
      const label = taskLabel(lookupPath(s, taskField));
      if (label) return label;
    }
    return undefined;
  }
  return taskLabel(own);
}

/** Where records commonly keep a task label (gateways' and SDKs' metadata), tried in this order. */
export const TASK_FIELD_CANDIDATES = [
  'metadata.task',
  'task',
  'metadata.task_name',
  'task_name',
  'metadata.category',
  'category',
  'request.metadata.task',
  'body.metadata.task',
  'attributes.task',
  'metadata.tags.task',
];

/**
 * A guess at the field holding each record's task label, from sampled records: the first candidate that
 * gives a label in at least half of them and more than one distinct label or one label for all. Undefined
 * when none does.
 */
export function guessTaskField(samples: readonly unknown[]): string | undefined {
  if (samples.length === 0) return undefined;
  for (const path of TASK_FIELD_CANDIDATES) {
    const labels = samples.map((s) => taskLabel(lookupPath(s, path))).filter((l): l is string => l !== undefined);
    if (labels.length >= Math.max(1, samples.length / 2)) return path;
  }
  return undefined;
}

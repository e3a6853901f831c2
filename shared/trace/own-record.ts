// Maps keyed by strings anyone can write (tool names, trace ids, task labels). zod's z.record drops a
// "__proto__" key (assigning it to a plain object would set the prototype), so a tool named __proto__
// would silently lose its score. ownRecord validates the same way and keeps that key as an own property.
import { z } from 'zod';

/** Sets `key` as an own, enumerable property, "__proto__" included (plain assignment would not). */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** z.record(key, value), keeping a "__proto__" key like any other. */
export function ownRecord<K extends z.ZodType<string, string>, V extends z.ZodType>(key: K, value: V): z.ZodType<Record<z.output<K>, z.output<V>>, unknown> {
  const base = z.record(key, value);
  return z.unknown().transform((input, ctx) => {
    const parsed = base.safeParse(input);
    const issues = parsed.success ? [] : [...parsed.error.issues];
    let protoValue: unknown;
    const hasProto = typeof input === 'object' && input !== null && !Array.isArray(input) && Object.hasOwn(input, '__proto__');
    if (hasProto) {
      const k = key.safeParse('__proto__');
      const v = value.safeParse((input as Record<string, unknown>)['__proto__']);
      if (!k.success) issues.push(...k.error.issues.map((i) => ({ ...i, path: ['__proto__', ...i.path] })));
      if (!v.success) issues.push(...v.error.issues.map((i) => ({ ...i, path: ['__proto__', ...i.path] })));
      else protoValue = v.data;
    }
    if (issues.length > 0 || !parsed.success) {
      for (const issue of issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path, input });
      return z.NEVER;
    }
    const out = parsed.data as Record<string, unknown>;
    if (hasProto) setOwn(out, '__proto__', protoValue);
    return out as Record<z.output<K>, z.output<V>>;
  });
}

/** `record[key]` when the record itself holds the key; never an inherited value (`toString`, `constructor`). */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

// Span attributes in one shape: a flat map of dotted keys. OTLP's typed AnyValue lists are decoded,
// nested objects (Phoenix, kvlist values) are flattened, and indexed families (`llm.input_messages.3.…`)
// are read back as lists.
import { isObj, str, type Obj } from '../values';

const MAX_NESTING = 64;

/** OTLP AnyValue (camelCase or snake_case) → plain JSON value. */
export function anyValue(v: unknown, depth = 0): unknown {
  if (!isObj(v) || depth > MAX_NESTING) return undefined;
  if ('stringValue' in v || 'string_value' in v) return v.stringValue ?? v.string_value;
  if ('boolValue' in v || 'bool_value' in v) return v.boolValue ?? v.bool_value;
  if ('intValue' in v || 'int_value' in v) {
    const n = Number(v.intValue ?? v.int_value);
    return Number.isFinite(n) ? n : str(v.intValue ?? v.int_value);
  }
  if ('doubleValue' in v || 'double_value' in v) return Number(v.doubleValue ?? v.double_value);
  const array = v.arrayValue ?? v.array_value;
  if (isObj(array)) return (Array.isArray(array.values) ? array.values : []).map((x) => anyValue(x, depth + 1));
  const kv = v.kvlistValue ?? v.kvlist_value;
  if (isObj(kv)) return keyValues(kv.values, depth + 1);
  if ('bytesValue' in v || 'bytes_value' in v) return str(v.bytesValue ?? v.bytes_value);
  return undefined;
}

/** `[{key, value: AnyValue}]` → object. */
export function keyValues(list: unknown, depth = 0): Obj {
  const out: Obj = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (!isObj(kv)) continue;
    const key = str(kv.key);
    if (key !== undefined) out[key] = anyValue(kv.value, depth);
  }
  return out;
}

/**
 * Flatten nested objects into dotted keys. Arrays of objects are kept under their key (for attributes
 * such as `gen_ai.input.messages` given as real arrays) and flattened by index as well (OpenInference).
 */
export function flattenAttributes(value: unknown, out: Obj = {}, prefix = '', depth = 0): Obj {
  if (depth > MAX_NESTING) return out;
  if (isObj(value)) {
    for (const [k, v] of Object.entries(value)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (isObj(v) || (Array.isArray(v) && v.some((x) => isObj(x)))) {
        if (Array.isArray(v)) out[key] = v;
        flattenAttributes(v, out, key, depth + 1);
      } else out[key] = v;
    }
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => {
      const key = `${prefix}.${i}`;
      if (isObj(v) || Array.isArray(v)) flattenAttributes(v, out, key, depth + 1);
      else out[key] = v;
    });
  }
  return out;
}

/**
 * An indexed family under `prefix` (`llm.input_messages.`): entry N holds the keys after `N.`, in index
 * order. One pass over the attribute keys.
 */
export function indexed(attrs: Obj, prefix: string): Obj[] {
  const byIndex = new Map<number, Obj>();
  for (const key of Object.keys(attrs)) {
    if (!key.startsWith(prefix)) continue;
    const rest = key.slice(prefix.length);
    const dot = rest.indexOf('.');
    const n = Number(dot < 0 ? rest : rest.slice(0, dot));
    if (!Number.isInteger(n) || n < 0 || dot < 0) continue;
    let entry = byIndex.get(n);
    if (!entry) byIndex.set(n, (entry = {}));
    entry[rest.slice(dot + 1)] = attrs[key];
  }
  return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
}

// Which fields of the API's inputs are file paths on the engine's machine. Every such field is built from
// the one `filePath` schema below, so the fields are found from the schemas themselves: `lots ui --root`
// confines each of them (electron/engine/api/path-policy.ts), and a field added later is confined without
// anyone remembering to. A container the walker cannot see into fails loudly (and the test of every
// method's path fields with it) instead of hiding a path.
import { z } from 'zod';

/** Why a string cannot be a path on any system the engine runs on (NUL ends a C string: every file call
 * refuses it), or null. Shared by the path schema and the plain-string fields that may name a file. */
export function invalidPathReason(value: string): string | null {
  if (value.includes('\0')) return 'a path cannot contain a NUL byte (\\0); give the path as it is on disk';
  return null;
}

/** A file or folder path on the engine's machine. Use this schema for every path an API input takes. A
 * path no file call could take is INVALID_INPUT here, before the service sees it. */
export const filePath = z
  .string()
  .min(1, 'a path is required')
  .max(4096)
  .superRefine((value, ctx) => {
    const reason = invalidPathReason(value);
    if (reason !== null) ctx.addIssue({ code: 'custom', message: reason });
  });

/** Types that hold no other schema (a path cannot hide in them). */
const LEAVES = new Set([
  'string',
  'number',
  'int',
  'boolean',
  'bigint',
  'enum',
  'literal',
  'undefined',
  'null',
  'void',
  'nan',
  'date',
  'any',
  'unknown',
  'never',
]);
/** Types that wrap one schema and keep the value's shape. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch']);

interface Def {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: readonly z.ZodType[];
  in?: z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { def: Def }).def;

/** Whether a path field is somewhere inside `schema` (throws on a type the walker does not know). */
function holdsPath(schema: z.ZodType): boolean {
  return pathFieldsOf(schema).length > 0;
}

/**
 * Where the path fields of an input are: `dir`, `paths[]`, `model`, … (`[]` marks every element of an
 * array). Throws for a schema type this walker does not know, and for a union with a path inside, so a
 * new kind of input cannot slip a path past it.
 */
export function pathFieldsOf(schema: z.ZodType, at = ''): string[] {
  if (schema === filePath) return [at || '(the input)'];
  const def = defOf(schema);
  if (LEAVES.has(def.type)) return [];
  if (WRAPPERS.has(def.type)) return pathFieldsOf(def.innerType!, at);
  if (def.type === 'object') return Object.entries(def.shape!).flatMap(([key, field]) => pathFieldsOf(field, at ? `${at}.${key}` : key));
  if (def.type === 'array') return pathFieldsOf(def.element!, `${at}[]`);
  if (def.type === 'pipe') return pathFieldsOf(def.in!, at);
  if (def.type === 'union') {
    if (def.options!.some(holdsPath))
      throw new Error(`${at || 'an input'}: a union holding a file path is not supported by shared/api/path-fields.ts; give the path its own field`);
    return [];
  }
  throw new Error(`${at || 'an input'}: cannot tell whether a zod "${def.type}" holds a file path; teach shared/api/path-fields.ts about it`);
}

/** The string fields of an input that are not path fields (for the test that no path hides in a plain string). */
export function plainStringFieldsOf(schema: z.ZodType, at = ''): string[] {
  if (schema === filePath) return [];
  const def = defOf(schema);
  if (def.type === 'string') return [at || '(the input)'];
  if (WRAPPERS.has(def.type)) return plainStringFieldsOf(def.innerType!, at);
  if (def.type === 'object') return Object.entries(def.shape!).flatMap(([key, field]) => plainStringFieldsOf(field, at ? `${at}.${key}` : key));
  if (def.type === 'array') return plainStringFieldsOf(def.element!, `${at}[]`);
  if (def.type === 'pipe') return plainStringFieldsOf(def.in!, at);
  if (def.type === 'union') return def.options!.flatMap((o) => plainStringFieldsOf(o, at));
  return [];
}

/**
 * `value` (an input parsed by `schema`) with every path field replaced by `map(path, field)`; the rest is
 * kept as it is. `field` names the field as `pathFieldsOf` does, with the element's index (`paths[2]`).
 */
export function mapPathFields(schema: z.ZodType, value: unknown, map: (path: string, field: string) => string, at = ''): unknown {
  if (schema === filePath) return typeof value === 'string' ? map(value, at || '(the input)') : value;
  const def = defOf(schema);
  if (WRAPPERS.has(def.type)) return value === undefined || value === null ? value : mapPathFields(def.innerType!, value, map, at);
  if (def.type === 'object') {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const record = value as Record<string, unknown>;
    let out: Record<string, unknown> | undefined;
    for (const [key, field] of Object.entries(def.shape!)) {
      if (!Object.hasOwn(record, key)) continue;
      const mapped = mapPathFields(field, record[key], map, at ? `${at}.${key}` : key);
      if (mapped !== record[key]) (out ??= { ...record })[key] = mapped;
    }
    return out ?? value;
  }
  if (def.type === 'array') {
    if (!Array.isArray(value) || !holdsPath(def.element!)) return value;
    return value.map((v, i) => mapPathFields(def.element!, v, map, `${at}[${i}]`));
  }
  if (def.type === 'pipe') return mapPathFields(def.in!, value, map, at);
  // Leaves, and unions (pathFieldsOf refuses a union with a path inside).
  return value;
}

// The plain-object check, in a module of its own so that secrets.ts and values.ts (which redacts with
// secrets.ts) can both use it without importing each other.
export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

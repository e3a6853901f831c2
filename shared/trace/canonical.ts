// Canonical JSON: keys sorted, so equal traces serialise (and hash) identically. Every own key counts,
// "__proto__" included (JSON.parse makes it an ordinary own property; two traces that differ only there
// are different traces).
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    // A null-prototype object: assigning "__proto__" creates an own key instead of setting a prototype.
    const out = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

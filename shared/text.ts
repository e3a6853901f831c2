// Words that depend on a count, for every layer's messages: "1 tool", "2 tools".
export function plural(n: number, one: string, many = one + 's', format: (n: number) => string = String): string {
  return `${format(n)} ${n === 1 ? one : many}`;
}

/** A share as a whole percent ("42%"), "—" where there is none. */
export function percent(x: number | undefined): string {
  return x === undefined || !Number.isFinite(x) ? '—' : `${Math.round(x * 100)}%`;
}

// Words that depend on a count, for every layer's messages: "1 tool", "2 tools".
export function plural(n: number, one: string, many = one + 's', format: (n: number) => string = String): string {
  return `${format(n)} ${n === 1 ? one : many}`;
}

/**
 * `x` with `digits` decimals, a half rounded away from zero at that scale: the rule `percent` uses, so one
 * number reads the same in the CLI's tables and in the Studio's views (29/40 is "0.73" and "73%").
 * `toFixed` alone rounds the stored binary value instead: 0.725 is stored just below it and prints "0.72",
 * while 0.525 is stored just above and prints "0.53".
 */
export function formatFixed(x: number, digits = 2): string {
  const scale = 10 ** digits;
  const n = Math.round(Math.abs(x) * scale);
  const text = (n / scale).toFixed(digits);
  return x < 0 && n !== 0 ? `-${text}` : text;
}

/** A duration in whole seconds, "95 s", or from two minutes "47 min 59 s" (rounded first: never "60 s"). */
export function formatMinSec(seconds: number): string {
  const s = Math.round(seconds);
  return s < 120 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** A share as a whole percent ("42%"), "—" where there is none. */
export function percent(x: number | undefined): string {
  return x === undefined || !Number.isFinite(x) ? '—' : `${Math.round(x * 100)}%`;
}

/** "a", "a and b", "a, b and c". */
export function listText(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

// Number and line formatting shared by the executor, the gold answers and the tests, so a gold answer
// is the exact string a Calculator line shows.

/** At most two decimals, trailing zeros dropped: 1234.5, 17, -0.25. Never "-0". */
export function formatNumber(x: number): string {
  if (!Number.isFinite(x)) throw new RangeError(`cannot format ${x} as a benchmark number`);
  const fixed = (Math.round(x * 100) / 100).toFixed(2);
  const trimmed = fixed.replace(/\.?0+$/, '');
  return trimmed === '-0' ? '0' : trimmed;
}

/** Paper B.2: each tool line is truncated to 1,500 characters. */
export const LINE_LIMIT = 1500;

export function truncateOutput(output: string, limit = LINE_LIMIT): string {
  const oneLine = output.replace(/\s*\n\s*/g, ' ');
  return oneLine.length <= limit ? oneLine : oneLine.slice(0, limit);
}

/** Clock time "HH:MM" → minutes after midnight. */
export function clockToMinutes(clock: string): number {
  const m = /^(\d{1,2}):(\d{2})$/.exec(clock);
  if (!m) throw new RangeError(`not a clock time: "${clock}"`);
  return Number(m[1]) * 60 + Number(m[2]);
}

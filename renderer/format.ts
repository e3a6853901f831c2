// Number and text formatting shared by every view: fixed precision, a true minus sign, tabular digits
// come from CSS (font-variant-numeric) so columns line up.
import { parseRunKey } from '../shared/project/scores';
import { plural as sharedPlural } from '../shared/text';

const MINUS = '\u2212';

export function fmtScore(x: number | null | undefined, digits = 3): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  const s = Math.abs(x).toFixed(digits);
  if (/^0\.?0*$/.test(s)) return s;
  return x < 0 ? MINUS + s : s;
}

export function fmtSigned(x: number | null | undefined, digits = 3): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  const s = fmtScore(x, digits);
  return x > 0 && !/^0\.?0*$/.test(s) ? '+' + s : s;
}

/**
 * Like fmtSigned, but a nonzero value that would round to zero at `digits` (a random-weight model's
 * scores are ~1e-6) is written with two significant digits instead: +2.3e−6.
 */
export function fmtSignedSmall(x: number | null | undefined, digits = 3): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  if (x === 0 || Math.abs(x) >= 0.5 * 10 ** -digits) return fmtSigned(x, digits);
  const s = Math.abs(x).toExponential(1).replace('-', MINUS);
  return (x < 0 ? MINUS : '+') + s;
}

export function fmtPercent(x: number | null | undefined, digits = 0): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  return `${(x * 100).toFixed(digits)}%`;
}

/**
 * A bootstrap share as a whole percent, rounded down (issue 40): a share below a threshold such as 95%
 * never reads as that threshold, so a table and a sentence that counts "≥ 95%" agree.
 */
export function fmtShare(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  return `${Math.floor(x * 100 + 1e-9)}%`;
}

export function fmtInt(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  return Math.round(x).toLocaleString('en-US');
}

export function fmtBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(u === 0 ? 0 : v < 10 ? 2 : 1)} ${units[u]}`;
}

export function fmtDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export function fmtTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString('en-GB', { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit' });
}

export function plural(n: number, one: string, many = one + 's'): string {
  return sharedPlural(n, one, many, fmtInt);
}

/** A run key `<modelHash>|<intervention>|<span>[|<format>]` or `import:<name>` as a short label. */
export function runLabel(run: string | null | undefined, model?: string): string {
  if (!run) return 'no run';
  if (run.startsWith('import:')) return `imported: ${run.slice(7)}`;
  const parts = parseRunKey(run);
  if (!parts) return run;
  return `${model ?? parts.modelHash.slice(0, 8)} · ${parts.intervention} · ${parts.span}${parts.format ? ` · ${parts.format}` : ''}`;
}

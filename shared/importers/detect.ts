// Which format a file is in, from its first records, and why: every format scores each sample; the
// highest total wins, ties go to the earlier format in TRACE_FORMATS.
import { TRACE_FORMATS } from './formats';
import type { FormatId } from './types';
import { isObj } from './values';

export interface Detection {
  format: FormatId;
  /** In words, for the user: which records matched and what gave them away. */
  reason: string;
  matched: number;
  sampled: number;
}

export type DetectionResult = { ok: true; detection: Detection } | { ok: false; message: string };

export function detectFormat(samples: readonly unknown[]): DetectionResult {
  if (samples.length === 0) return { ok: false, message: 'no record could be read, so the format cannot be recognised' };
  let best: { format: FormatId; total: number; matched: number; reason: string } | undefined;
  for (const f of TRACE_FORMATS) {
    let total = 0;
    let matched = 0;
    let reason = '';
    for (const s of samples) {
      let r: { score: number; reason: string } | null = null;
      try {
        r = f.recognize(s);
      } catch {
        r = null;
      }
      if (!r) continue;
      total += r.score;
      matched++;
      reason ||= r.reason;
    }
    if (matched > 0 && (!best || total > best.total)) best = { format: f.id, total, matched, reason };
  }
  if (!best) {
    const first = samples.find((s) => isObj(s)) ?? samples[0];
    const keys = isObj(first) ? Object.keys(first).slice(0, 8).join(', ') : Array.isArray(first) ? 'a JSON array' : typeof first;
    return {
      ok: false,
      message: `could not recognise the format of the first ${samples.length} record(s) (top-level keys: ${keys || 'none'}); pass --format with one of the supported formats`,
    };
  }
  const label = TRACE_FORMATS.find((f) => f.id === best.format)!.label;
  return {
    ok: true,
    detection: {
      format: best.format,
      matched: best.matched,
      sampled: samples.length,
      reason: `${label}: ${best.matched} of the first ${samples.length} record(s), read to detect the format, match — ${best.reason}`,
    },
  };
}

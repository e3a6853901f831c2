// The score exchange format (`lots scores import/export`, `lots fit --scores`): JSONL, one ScoreRow per line.
// Every rejected line is reported as `file:line: reason`; the rest stays usable.
import { ScoreRowSchema, type ScoreRow } from '../project/scores';
import { describeZodError, parseJsonLine, type LineError } from '../trace/validate';
import { checkScoreRow } from './aggregate';
import { normaliseLineBreaks } from '../trace/lines';

export interface ParsedScoreFile {
  rows: ScoreRow[];
  /** 1-based line of each row, parallel to `rows`. */
  lines: number[];
  errors: LineError[];
  /** Non-blank lines seen. */
  records: number;
}

/** JSON has no NaN or Infinity; say so instead of a parser's "unexpected token". */
const NON_FINITE = /(?<![\w"])-?(NaN|Infinity)(?![\w"])/;

export function parseScoreLine(text: string, file: string, line: number): { ok: true; value: ScoreRow } | { ok: false; error: LineError } {
  const json = parseJsonLine(text, file, line);
  if (!json.ok) {
    if (NON_FINITE.test(text)) {
      return {
        ok: false,
        error: {
          file,
          line,
          message: 'NaN/Infinity is not a JSON number: a score must be a finite number (leave a tool that could not be scored out of "scores")',
        },
      };
    }
    return json;
  }
  if (json.value === null || typeof json.value !== 'object' || Array.isArray(json.value)) {
    return {
      ok: false,
      error: { file, line, message: 'each line must be one JSON object like {"trace":"r1","task":"t","exposed":["A","B"],"scores":{"A":0.5}}' },
    };
  }
  // Most lines are well formed: check them by hand (zod is slow on a cold start) and let the schema
  // word the message only for a line that fails.
  if (isWellFormedRow(json.value)) {
    const row = json.value;
    const stray = checkScoreRow(row);
    if (stray) return { ok: false, error: { file, line, message: stray } };
    return { ok: true, value: { trace: row.trace, ...(row.task !== undefined ? { task: row.task } : {}), exposed: row.exposed, scores: row.scores } };
  }
  const parsed = ScoreRowSchema.safeParse(json.value);
  if (!parsed.success) return { ok: false, error: { file, line, message: describeZodError(parsed.error) } };
  const stray = checkScoreRow(parsed.data);
  if (stray) return { ok: false, error: { file, line, message: stray } };
  return { ok: true, value: parsed.data };
}

/** Exactly what ScoreRowSchema accepts (unknown extra fields are dropped by the caller). */
function isWellFormedRow(v: object): v is ScoreRow {
  const r = v as Record<string, unknown>;
  if (typeof r.trace !== 'string' || r.trace.length === 0) return false;
  if (r.task !== undefined && (typeof r.task !== 'string' || r.task.length === 0)) return false;
  if (!Array.isArray(r.exposed)) return false;
  for (const t of r.exposed) if (typeof t !== 'string' || t.length === 0) return false;
  const scores = r.scores;
  if (scores === null || typeof scores !== 'object' || Array.isArray(scores)) return false;
  for (const key in scores) {
    if (key.length === 0) return false;
    const x = (scores as Record<string, unknown>)[key];
    if (typeof x !== 'number' || !Number.isFinite(x)) return false;
  }
  return true;
}

/** Parse a whole score file. A trace may appear once: a second record for it is rejected, naming the first. */
export function parseScoreFile(text: string, file: string): ParsedScoreFile {
  const out: ParsedScoreFile = { rows: [], lines: [], errors: [], records: 0 };
  const firstLine = new Map<string, number>();
  const lines = normaliseLineBreaks(text).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r$/, '');
    if (!raw.trim()) continue;
    out.records++;
    const line = i + 1;
    const res = parseScoreLine(i === 0 ? raw.replace(/^\uFEFF/, '') : raw, file, line);
    if (!res.ok) {
      out.errors.push(res.error);
      continue;
    }
    const seen = firstLine.get(res.value.trace);
    if (seen !== undefined) {
      out.errors.push({ file, line, message: `trace: "${res.value.trace}" already has a score record at line ${seen}; a file holds one record per trace` });
      continue;
    }
    firstLine.set(res.value.trace, line);
    out.rows.push(res.value);
    out.lines.push(line);
  }
  return out;
}

/** One exchange-format line, keys in a fixed order (what `lots scores export` writes). */
export function formatScoreLine(row: ScoreRow): string {
  return JSON.stringify({
    trace: row.trace,
    ...(row.task !== undefined ? { task: row.task } : {}),
    exposed: row.exposed,
    scores: row.scores,
  });
}

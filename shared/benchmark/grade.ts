// Grading a served answer against the gold answer.
//
// Rule: the answer's first number-like span is its value (thousands separators "1,234.5" allowed; a
// hyphen right after a letter or digit is a separator, as in "TH-21", not a minus sign). It is correct
// when |value − gold| ≤ max(0.01, 0.001·|gold|): an absolute cent for small values (gold answers carry
// at most two decimals) and 0.1% for large ones, so rounding a four-digit total to the unit passes while
// an arithmetic slip does not. A gold answer that is not a number must match the trimmed answer
// exactly, ignoring case.

export const ABSOLUTE_TOLERANCE = 0.01;
export const RELATIVE_TOLERANCE = 1e-3;

const NUMBER = /(?<![\p{L}\p{N}.])[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|(?<![\p{L}\p{N}.])[-−]?\.\d+/u;

/** Every number-like span of a text, as written (what a model copying from the text could answer). */
export function numberSpans(text: string): string[] {
  return [...text.matchAll(new RegExp(NUMBER.source, 'gu'))].map((m) => m[0]);
}

/** The first number-like span of a text, or undefined. */
export function firstNumber(text: string): number | undefined {
  const m = NUMBER.exec(text);
  if (!m) return undefined;
  const value = Number(m[0].replace(/,/g, '').replace('−', '-'));
  return Number.isFinite(value) ? value : undefined;
}

export interface Grade {
  correct: boolean;
  /** The parsed value of the answer (undefined when it holds no number). */
  value?: number;
}

export function gradeAnswer(answer: string, gold: string): Grade {
  const goldValue = firstNumber(gold);
  if (goldValue === undefined || gold.trim() !== gold.trim().match(NUMBER)?.[0]) {
    return { correct: answer.trim().toLowerCase() === gold.trim().toLowerCase() };
  }
  const value = firstNumber(answer);
  if (value === undefined) return { correct: false };
  // The 1e-9 slack absorbs binary rounding of decimal inputs (0.1 + 0.2), never a real difference.
  const tolerance = Math.max(ABSOLUTE_TOLERANCE, RELATIVE_TOLERANCE * Math.abs(goldValue)) + 1e-9;
  return { correct: Math.abs(value - goldValue) <= tolerance, value };
}

import { describe, expect, it } from 'vitest';
import { firstNumber, gradeAnswer } from '../../../shared/benchmark/grade';

describe('numeric grading', () => {
  it('reads the first number-like span', () => {
    expect(firstNumber('The total is 1,234.50 EUR (from 6 rows).')).toBe(1234.5);
    expect(firstNumber('-12.5')).toBe(-12.5);
    expect(firstNumber('−3')).toBe(-3);
    expect(firstNumber('.5')).toBe(0.5);
    expect(firstNumber('sensor TH-21 reads 14')).toBe(21); // a hyphen after a letter is not a minus sign
    expect(firstNumber('no number')).toBeUndefined();
  });

  it('accepts an absolute cent or 0.1%, whichever is larger', () => {
    expect(gradeAnswer('4818.69', '4818.69').correct).toBe(true);
    expect(gradeAnswer('4819', '4818.69').correct).toBe(true); // within 0.1% of 4818.69 (±4.8)
    expect(gradeAnswer('4824', '4818.69').correct).toBe(false);
    expect(gradeAnswer('13.87', '13.86').correct).toBe(true); // one cent
    expect(gradeAnswer('13.9', '13.86').correct).toBe(false);
    expect(gradeAnswer('0.3', '0.30').correct).toBe(true);
    expect(gradeAnswer('75 minutes', '75').correct).toBe(true);
    expect(gradeAnswer('Answer: 74', '75').correct).toBe(false);
    expect(gradeAnswer('', '75')).toEqual({ correct: false });
    expect(gradeAnswer('minus 5', '-5').correct).toBe(false);
  });

  it('the first number decides, not a later one', () => {
    expect(gradeAnswer('12 rows give 4818.69', '4818.69').correct).toBe(false);
  });

  it('falls back to a case-insensitive exact match for a gold answer that is not a number', () => {
    expect(gradeAnswer(' Paris ', 'paris').correct).toBe(true);
    expect(gradeAnswer('Lyon', 'Paris').correct).toBe(false);
  });
});

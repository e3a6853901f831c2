// A baseline's accuracy as text, with the 95% interval of the mean for a random baseline.
import type { BudgetData } from '../../../shared/api';
import { fmtPercent } from '../../format';
import { drawsInterval } from '../budget-stats';

/** A baseline's accuracy; a random baseline's as the 95% interval of its mean over the draws, "[lo, hi]" like every other interval. */
export function fmtBaselineAccuracy(b: BudgetData['baselines'][number]): string {
  if (b.accuracyStd === undefined) return fmtPercent(b.accuracy, 1);
  const ci = drawsInterval(b.accuracy, b.accuracyStd, b.draws ?? 1);
  return `${fmtPercent(b.accuracy, 1)} [${fmtPercent(ci.lo, 1)}, ${fmtPercent(ci.hi, 1)}]`;
}

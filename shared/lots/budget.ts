// Budget selection (Appendix B.3/C.2): serve the top-K space for every K in a grid and keep the
// smallest K with the highest fitting accuracy. Labels are used only here.

export interface AccuracyPoint {
  k: number;
  accuracy: number;
}

/** The smallest K attaining the highest accuracy; undefined when no point has a finite accuracy. */
export function selectBudget(curve: readonly AccuracyPoint[]): number | undefined {
  let best: AccuracyPoint | undefined;
  for (const p of curve) {
    if (!Number.isFinite(p.accuracy)) continue;
    if (!best || p.accuracy > best.accuracy || (p.accuracy === best.accuracy && p.k < best.k)) best = p;
  }
  return best?.k;
}

/** Whether a sweep holds no evidence for any budget: it measured at least one K and answered no fitting
 * request right at any. The rule above then keeps the smallest K by default, not on evidence (a sweep
 * flat at a higher accuracy is evidence: the smallest K does as well as any). */
export function sweepWithoutEvidence(curve: readonly AccuracyPoint[]): boolean {
  const measured = curve.filter((p) => Number.isFinite(p.accuracy));
  return measured.length > 0 && measured.every((p) => p.accuracy === 0);
}

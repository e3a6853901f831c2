// Ranking's stability shares (issue 40): a share below 95% never reads "95%", so the card that counts
// tools "in at least 95% of resamples" and the table's percentages agree.
import { describe, expect, it } from 'vitest';
import { fmtPercent, fmtShare } from '../../renderer/format';

describe('stability shares', () => {
  it('round down: 0.949 reads 94% (fmtPercent said 95%), 0.95 reads 95%, 1 reads 100%', () => {
    expect(fmtPercent(0.949)).toBe('95%');
    expect(fmtShare(0.949)).toBe('94%');
    expect(fmtShare(0.95)).toBe('95%');
    expect(fmtShare(0.57)).toBe('57%');
    expect(fmtShare(1)).toBe('100%');
    expect(fmtShare(null)).toBe('—');
  });
});

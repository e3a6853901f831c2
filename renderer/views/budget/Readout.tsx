// One readout under the Budget view's K slider (label, value, hint), and the interval format it uses.
import { fmtPercent } from '../../format';

export function Readout({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId?: string }) {
  return (
    <div className="readout" data-testid={testId}>
      <span className="label">{label}</span>
      <span className="value tabular">{value}</span>
      <span className="hint">{hint ?? '\u00a0'}</span>
    </div>
  );
}

export function fmtCi(ci: { lo: number; hi: number }): string {
  return `[${fmtPercent(ci.lo)}, ${fmtPercent(ci.hi)}]`;
}

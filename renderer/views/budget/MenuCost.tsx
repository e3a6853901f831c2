// The Budget view's menu cost at K: pinned only, pinned + deferred (demoted) and keep-all, as bars on one scale.
import type { BudgetData } from '../../../shared/api';
import { fmtInt, fmtPercent } from '../../format';

/**
 * What the menu costs per request at K: pinned only, pinned + deferred (demoted, as the gateway sends
 * deferred tools to an upstream without native deferral) and keep-all, as bars on one scale.
 */
export function MenuCost({
  budget,
  pinned,
  deferred,
  deferredFull,
  deferredCount,
  k,
}: {
  budget: BudgetData;
  pinned: number;
  deferred: number;
  /** What the deferred tools would cost in full. */
  deferredFull: number;
  deferredCount: number;
  k: number;
}) {
  const all = budget.menuSchemaTokens;
  const rows: { key: string; label: string; tokens: number; note: string }[] = [
    { key: 'pinned', label: 'pinned only', tokens: pinned, note: 'deferred tools left out (or deferred natively: defer_loading)' },
    {
      key: 'pinned-deferred',
      label: `pinned + ${deferredCount} deferred`,
      tokens: pinned + deferred,
      note: 'deferred tools demoted: name and one line, no schema',
    },
    { key: 'keep-all', label: `keep all ${budget.menuSize}`, tokens: all, note: 'every tool in full' },
  ];
  const max = Math.max(1, ...rows.map((r) => r.tokens));
  return (
    <div className="budget-menu-cost" data-testid="budget-menu-cost">
      <div className="small budget-menu-cost-head">
        <strong>Tool definitions per request at K = {k}</strong>{' '}
        <span className="muted">{budget.schemaTokensEstimated ? 'estimated at ~4 characters a token' : 'tokens'}</span>
      </div>
      <table className="budget-cost-bars">
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-cost={r.key}>
              <th scope="row" className="small">
                {r.label}
              </th>
              <td className="budget-cost-bar-cell">
                <span className={`budget-cost-bar ${r.key}`} style={{ width: `${(100 * r.tokens) / max}%` }} />
              </td>
              <td className="num tabular small budget-cost-value">{fmtInt(r.tokens)}</td>
              <td className="tiny muted budget-cost-note">
                {r.key === 'keep-all' ? r.note : `${all > 0 ? `${fmtPercent(1 - r.tokens / all)} fewer than keep-all · ` : ''}${r.note}`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {deferredCount > 0 && deferred >= deferredFull && (
        <p className="tiny muted" data-testid="budget-demotion-saves-nothing" style={{ margin: '4px 0 0' }}>
          The deferred tools’ recorded definitions carry no parameter schema, so their demoted form costs what the full one does: here deferring saves tokens
          only with native deferral (<code>defer_loading</code>), where a deferred tool is not in the prompt at all.
        </p>
      )}
    </div>
  );
}

// The Demo view's headline and provenance (issue 40): the result with its uncertainty in the same
// sentence (the paired difference against keep-all, its 95% interval and McNemar's p, from the paired
// table the view shows further down), and how it was measured as a sentence — model, preset, machine,
// date, duration — with the exact command behind a disclosure rather than a raw command line.
import type { DemoData } from '../../shared/api';
import { formatSigned, pClause } from '../../shared/benchmark/paired';
import { demoDuration, meanKept } from '../../shared/export/demo-report';
import { decodeCaveat } from '../../shared/project/run-record';
import { isBenchVariant, VARIANT_SUMMARIES } from '../../shared/benchmark/variant';
import { seedsHeadline } from '../../shared/benchmark/seeds';
import { percent } from '../../shared/text';
import { fmtInt } from '../format';

export function DemoHeadline({ data }: { data: DemoData }) {
  const lots = data.mean.lots?.eval;
  const all = data.mean['keep-all']?.eval;
  if (!lots || !all) return <p className="lede">Budget sweeps without evaluation results yet.</p>;
  const d = data.paired?.against.find((a) => a.baseline === 'keep-all')?.accuracy.pooled;
  const points = (x: number) => formatSigned(x * 100, 0);
  const seeds = data.record?.seeds ? seedsHeadline(data.record.seeds) : undefined;
  return (
    <p className="lede" data-testid="demo-headline">
      LOTS keeps <strong>{meanKept(data).toFixed(1)}</strong> tools per task and answers <strong>{percent(lots.accuracy)}</strong> of {lots.n} evaluation
      requests, against <strong>{percent(all.accuracy)}</strong> with the whole registry
      {d ? (
        <span data-testid="demo-headline-interval">
          {' '}
          (<strong>{points(d.difference)}</strong> points,{' '}
          {d.interval ? (
            <>
              95% interval{' '}
              <strong className="tabular">
                [{points(d.interval.lo)}, {points(d.interval.hi)}]
              </strong>
            </>
          ) : (
            <>too few requests for an interval</>
          )}
          {d.p !== undefined ? <>, {pClause(d.p, true)}</> : null})
        </span>
      ) : null}{' '}
      — using <strong>{fmtInt(Math.round(lots.promptTokens))}</strong> instead of {fmtInt(Math.round(all.promptTokens))} prompt tokens per request.
      {seeds && <span data-testid="demo-headline-seeds"> {seeds}</span>}
    </p>
  );
}

export function DemoProvenance({ data }: { data: DemoData }) {
  const r = data.record;
  if (!r) return null;
  const families = r.preset.families.length;
  const date = r.startedAt.slice(0, 10);
  const minutes = demoDuration(r).replace(/^ · /, '');
  // What the numbers measure (issue 39): the faithful variant can be passed by copying a tool line.
  const variant = r.preset.variant ?? 'faithful';
  return (
    <div className="small text-2 demo-provenance" data-testid="demo-provenance">
      Measured with <strong>{r.modelName}</strong> on {r.machine}, {date}
      {minutes ? `, in ${minutes}` : ''}: the <strong>{r.preset.name}</strong> preset, {families} famil{families === 1 ? 'y' : 'ies'} × ({r.preset.fit} fitting
      + {r.preset.eval} evaluation requests), {r.preset.registry} tools in the registry, K from 1 to {r.preset.kMax ?? 'all'}
      {r.preset.seeds && r.preset.seeds > 1 ? `, ${r.preset.seeds} seeds` : ''}.{' '}
      <span data-testid="demo-variant">
        The <strong>{variant}</strong> variant of the benchmark (
        {isBenchVariant(variant) ? VARIANT_SUMMARIES[variant] : 'a variant this version does not describe'}).
      </span>{' '}
      <details className="inline-details">
        <summary>{r.resumedWith?.length ? 'The commands' : 'The command'}</summary>
        <code className="wrap-anywhere" data-testid="demo-command">
          {r.command}
        </code>
        {r.resumedWith?.map((c, i) => (
          <span key={i}>
            {' '}
            then, resumed with:{' '}
            <code className="wrap-anywhere" data-testid="demo-command-resumed">
              {c}
            </code>
          </span>
        ))}
      </details>
    </div>
  );
}

/** Runs served before the one-sequence decode carry an error beyond their intervals: the view says so where the
 * figures are (the same sentence as the report). */
export function DemoDecodeCaveat({ data }: { data: DemoData }) {
  const caveat = data.record ? decodeCaveat(data.record) : undefined;
  if (!caveat) return null;
  return (
    <div className="callout warn small demo-caveat" role="note" data-testid="demo-decode-caveat">
      {caveat}
    </div>
  );
}

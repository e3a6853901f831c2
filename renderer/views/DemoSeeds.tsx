// The spread over the seeds of a `lots demo --seeds N` run (issue 39): per method, mean ± sd and range of
// the accuracy and of LOTS's paired difference, beside each seed's paired interval; and, where the seeds
// have the fixed-K rows, the paper's Table 9 across the seeds.
import type { DemoData } from '../../shared/api';
import { formatSigned } from '../../shared/benchmark/paired';
import {
  fixedKSeedDraws,
  fixedKSeedSummary,
  partialSeeds,
  seedSummary,
  spreadText,
  type SeedPoint,
  type SeedSummaryRow,
  type Spread,
} from '../../shared/benchmark/seeds';
import { methodLabel } from '../../shared/export/demo-report';
import { DrawsNote } from './DemoReference';

/** Mean ± sd (range) over the seeds; one seed's value alone (it has no spread). */
const spreadCell = (s: Spread, f: (x: number) => string, sd: (x: number) => string) => spreadText(s, f, sd, (r) => ` (${f(r.min)} … ${f(r.max)})`);

/** The spread over seeds of a `--seeds N` run; nothing for a single seed. With the fixed-K rows in the
 * seeds, the paper's Table 9 across seeds follows. */
export function DemoSeeds({ data }: { data: DemoData }) {
  const points = data.record?.seeds;
  if (!points || points.length < 2) return null;
  const fixedK = fixedKSeedSummary(points);
  return (
    <div className="card" style={{ marginTop: 14 }} data-testid="demo-seeds">
      <div className="card-head">
        <h2>Across {points.length} seeds</h2>
        <span className="small muted">seeds {points.map((p) => p.seed).join(', ')}: each redraws the scenes, the requests and Random</span>
      </div>
      <SeedsTable
        points={points}
        rows={seedSummary(points)}
        difference={(p, m) => p.lotsMinus[m]}
        testId="demo-seeds-table"
        what="Method"
        minus="LOTS minus it"
      />
      <p className="small muted" style={{ margin: '6px 0 0' }}>
        The spread across seeds says how much the result moves with a new draw of scenes and requests; the interval within a seed says how sure one draw is.
      </p>
      {fixedK.length > 0 && (
        <>
          <h3 style={{ margin: '14px 0 6px' }}>Every ranking at the same K, across seeds</h3>
          <SeedsTable
            points={points}
            rows={fixedK}
            difference={(p, m) => p.fixedK?.[m]}
            testId="demo-seeds-fixed-k"
            what="Ranking at a fixed K"
            minus="LOTS's top K minus it"
            draws={(m) => fixedKSeedDraws(points, m)}
          />
          <p className="small muted" style={{ margin: '6px 0 0' }}>
            Each ranking keeps its top K tools in every family (the paper's Table 9), beside LOTS's own top K: no fitting label chooses any of these spaces.
          </p>
        </>
      )}
    </div>
  );
}

type SeedDifference = SeedPoint['lotsMinus'][string];

function SeedsTable(props: {
  points: readonly SeedPoint[];
  rows: readonly SeedSummaryRow[];
  difference: (p: SeedPoint, method: string) => SeedDifference | undefined;
  testId: string;
  what: string;
  minus: string;
  draws?: (method: string) => number | undefined;
}) {
  const { points, rows } = props;
  const pp = (x: number) => `${(x * 100).toFixed(1)}%`;
  const signedPts = (x: number) => formatSigned(x * 100, 1);
  return (
    <table className="table" data-testid={props.testId}>
      <thead>
        <tr>
          <th>{props.what}</th>
          <th className="num">Accuracy: mean ± sd (range)</th>
          <th className="num">{props.minus}, points: mean ± sd (range)</th>
          <th>Each seed's paired 95% interval</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.method} data-method={r.method}>
            <td className="nowrap">
              <strong>{methodLabel(r.method)}</strong>
              <DrawsNote draws={props.draws?.(r.method)} />
            </td>
            <td className="num tabular">
              {spreadCell(r.accuracy, pp, pp)}
              <span className="muted small">{partialSeeds(r.accuracy, points.length)}</span>
            </td>
            <td className="num tabular">
              {r.lotsMinus ? (
                <>
                  {spreadCell(r.lotsMinus, signedPts, (x) => (x * 100).toFixed(1))}
                  <span className="muted small">{partialSeeds(r.lotsMinus, points.length)}</span>
                </>
              ) : (
                '—'
              )}
            </td>
            <td className="small tabular">
              {r.intervals.some((i) => i !== undefined)
                ? // Each seed's interval kept on one line; the line breaks between seeds.
                  r.intervals.map((i, k) => (
                    <span key={k}>
                      {k > 0 ? ' · ' : ''}
                      <span className="nowrap">{i ? `${i.seed}: [${signedPts(i.lo)}, ${signedPts(i.hi)}]` : `${points[k]!.seed}: —`}</span>
                    </span>
                  ))
                : '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

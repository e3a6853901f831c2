// The Ranking view's table columns (rank, tool, Ī, interval, n, exposed, in top-K, mean rank, space) and the stability bar.
import { createColumnHelper } from '@tanstack/react-table';
import type { RankingRow } from '../../../shared/api';
import { sortableFeatures } from '../../components/DataTable';
import { fmtScore, fmtShare, fmtSigned } from '../../format';

export type Row = RankingRow & { kept: boolean };
const helper = createColumnHelper<typeof sortableFeatures, Row>();
export const columns = [
  helper.accessor('rank', { header: '#', cell: (c) => c.getValue() }),
  helper.accessor('tool', { header: 'Tool', cell: (c) => <span className="mono">{c.getValue()}</span>, sortFn: 'alphanumeric' }),
  helper.accessor('mean', { header: 'Ī', cell: (c) => <span className={c.getValue() >= 0 ? 'pos' : 'neg'}>{fmtSigned(c.getValue(), 4)}</span> }),
  helper.accessor((r) => r.hi - r.lo, {
    id: 'interval',
    header: '95% interval',
    cell: (c) => `${fmtScore(c.row.original.lo, 3)} … ${fmtScore(c.row.original.hi, 3)}`,
  }),
  helper.accessor('n', { header: 'n', cell: (c) => c.getValue() }),
  helper.accessor('exposed', { header: 'exposed', cell: (c) => c.getValue() }),
  helper.accessor((r) => r.topKShare ?? -1, { id: 'stability', header: 'in top-K', cell: (c) => <Stability share={c.row.original.topKShare} /> }),
  helper.accessor((r) => r.meanRank ?? Infinity, { id: 'meanRank', header: 'mean rank', cell: (c) => fmtScore(c.row.original.meanRank, 1) }),
  helper.accessor('kept', { header: 'space', cell: (c) => (c.getValue() ? <span className="pill good">kept</span> : <span className="muted small">—</span>) }),
];
export const NUMERIC = new Set(['rank', 'mean', 'interval', 'n', 'exposed', 'stability', 'meanRank']);

function Stability({ share }: { share: number | null }) {
  if (share === null) return <span className="muted">—</span>;
  return (
    <span className="stability" title="share of bootstrap resamples keeping the tool in the top-K">
      <span className="stability-bar">
        <span style={{ width: `${share * 100}%` }} />
      </span>
      {fmtShare(share)}
    </span>
  );
}

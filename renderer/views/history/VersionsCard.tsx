// The History view's approved versions: each version's tools and its change against the one before.
import type { HistoryData } from '../../../shared/api';
import { diffSpaces } from '../../../shared/project/spaces';
import { fmtTime } from '../../format';
import { useStudio } from '../../store/react';

export function VersionsCard({ history }: { history: HistoryData }) {
  const navigate = useStudio((s) => s.navigate);
  if (history.versions.length === 0) {
    return (
      <div className="card">
        <div className="card-head">
          <h2>Approved versions</h2>
        </div>
        <p className="muted small" style={{ margin: 0 }}>
          None yet.{' '}
          <button className="btn small" onClick={() => navigate({ view: 'space' })}>
            Approve a space…
          </button>
        </p>
      </div>
    );
  }
  return (
    <div className="card">
      <div className="card-head">
        <h2>Approved versions</h2>
        <span className="sub">{history.versions.length} · newest last</span>
      </div>
      <table className="table small" data-testid="history-versions">
        <thead>
          <tr>
            <th>version</th>
            <th>approved</th>
            <th>tools</th>
            <th>change</th>
            <th>note</th>
          </tr>
        </thead>
        <tbody>
          {history.versions.map((v, i) => {
            const d = diffSpaces(history.versions[i - 1]?.tools ?? [], v.tools);
            return (
              <tr key={v.version}>
                <td className="tabular">v{v.version}</td>
                <td className="tabular">{fmtTime(v.createdAt)}</td>
                <td className="mono">{v.tools.join(', ') || '(none)'}</td>
                <td className="mono">{[...d.added.map((t) => `+${t}`), ...d.removed.map((t) => `−${t}`)].join(' ') || '—'}</td>
                <td>{v.note}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

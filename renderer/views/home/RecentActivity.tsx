// The project home's "Recent activity" and "Scoring runs" cards.
import { fmtInt, fmtTime, runLabel } from '../../format';
import { useStudio } from '../../store/react';

export function RecentActivity() {
  const project = useStudio((s) => s.project!);
  return (
    <div className="grid-2" style={{ marginTop: 14 }}>
      <div className="card">
        <div className="card-head">
          <h2>Recent activity</h2>
        </div>
        {project.activity.length === 0 ? (
          <p className="muted">Nothing yet.</p>
        ) : (
          <table className="table small">
            <tbody>
              {project.activity.slice(0, 10).map((a, i) => (
                <tr key={`${a.at}${i}`}>
                  <td className="muted nowrap tabular" style={{ width: 150 }}>
                    {fmtTime(a.at)}
                  </td>
                  <td>
                    <span className="pill">{a.kind}</span>
                  </td>
                  <td>{a.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <div className="card">
        <div className="card-head">
          <h2>Scoring runs</h2>
        </div>
        {project.runs.length === 0 ? (
          <p className="muted">
            No scores yet. Pick a model on the Models view and press Score on the Jobs view, or import scores with <code>lots scores import</code>.
          </p>
        ) : (
          <div className="table-wrap">
            <table className="table small" data-testid="runs-table">
              <thead>
                <tr>
                  <th>Run</th>
                  <th className="num">Rows</th>
                  <th className="num">Last</th>
                </tr>
              </thead>
              <tbody>
                {project.runs.map((r) => (
                  <tr key={r.run}>
                    <td style={{ overflowWrap: 'anywhere' }} title={r.run}>
                      {runLabel(r.run, r.model)}
                    </td>
                    <td className="num">{fmtInt(r.rows)}</td>
                    <td className="num muted nowrap">{fmtTime(r.lastAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </div>
  );
}

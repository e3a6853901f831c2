// The home view without a project: open, create or the sample project, and the recent projects.
import { useShallow } from 'zustand/react/shallow';
import { useCommands } from '../../components/commands-context';
import { useStudio } from '../../store/react';
import { fmtTime } from '../../format';

export function NoProject() {
  const commands = useCommands();
  const recent = useStudio(useShallow((s) => s.recent));
  const openProject = useStudio((s) => s.openProject);
  const navigate = useStudio((s) => s.navigate);
  const openSample = useStudio((s) => s.openSampleProject);
  const sampleBusy = useStudio((s) => s.sampleBusy);
  return (
    <div style={{ maxWidth: 980 }}>
      <div className="view-header">
        <div>
          <h1>Start with your agent's traces</h1>
          <p className="lede">
            A project is a folder holding imported traces, their scores and every approved tool space. Open one, create one and drop trace files on the window,
            or open the sample project to see the whole loop on a real run of the built-in benchmark.
          </p>
        </div>
      </div>
      <div className="grid-3 action-cards">
        <div className="card">
          <div className="card-head">
            <h2>Open a project</h2>
          </div>
          <p className="text-2" style={{ marginBottom: 12 }}>
            A folder that holds a <code>project.json</code>.
          </p>
          <button className="btn primary" onClick={() => void commands.openProject()} data-testid="open-project">
            Open project…
          </button>
        </div>
        <div className="card">
          <div className="card-head">
            <h2>New project</h2>
          </div>
          <p className="text-2" style={{ marginBottom: 12 }}>
            Create an empty project folder, then import trace files into it.
          </p>
          <button className="btn" onClick={() => void commands.newProject()} data-testid="new-project">
            New project…
          </button>
        </div>
        <div className="card">
          <div className="card-head">
            <h2>Demo</h2>
          </div>
          <p className="text-2" style={{ marginBottom: 12 }}>
            A real run of the built-in benchmark on a local model, already scored: heatmap, ranking, budget curve and approved spaces, no model needed.
          </p>
          <div className="field-row">
            <button className="btn primary" onClick={() => void openSample()} disabled={sampleBusy} data-testid="open-sample">
              {sampleBusy ? <span className="spinner" /> : null}Open the sample project
            </button>
            <button className="btn ghost" onClick={() => navigate({ view: 'demo' })}>
              Build a demo…
            </button>
          </div>
        </div>
      </div>
      <div className="card" style={{ marginTop: 14 }}>
        <div className="card-head">
          <h2>Recent projects</h2>
        </div>
        {recent.length === 0 ? (
          <p className="muted">None yet: projects you open appear here.</p>
        ) : (
          <table className="table">
            <tbody>
              {recent.map((r) => (
                <tr
                  key={r.dir}
                  className="clickable"
                  onClick={() => void openProject(r.dir)}
                  tabIndex={0}
                  onKeyDown={(e) => e.key === 'Enter' && void openProject(r.dir)}
                >
                  <td style={{ width: '28%' }}>
                    <strong>{r.name}</strong>
                  </td>
                  <td className="mono ellipsis muted">{r.dir}</td>
                  <td className="num muted">{fmtTime(r.openedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}

// The project home's "Tasks" card: one row per task, opening its heatmap or its space.
import { useCommands } from '../../components/commands-context';
import { Empty } from '../../components/Empty';
import { SpacePill } from '../../components/SpacePill';
import { fmtInt, plural } from '../../format';
import { useStudio } from '../../store/react';

export function TaskTable() {
  const commands = useCommands();
  const project = useStudio((s) => s.project!);
  const navigate = useStudio((s) => s.navigate);
  const selectedTask = useStudio((s) => s.route.task);
  const setTask = useStudio((s) => s.setTask);

  const openTask = (task: string, view: 'heatmap' | 'space' = 'heatmap') => {
    setTask(task);
    navigate({ view, task });
  };

  return (
    <div className="card" style={{ marginTop: 14 }}>
      <div className="card-head">
        <h2>Tasks</h2>
        <span className="sub">Click a task to inspect its heatmap. Drop trace files anywhere to import more.</span>
      </div>
      {project.tasks.length === 0 ? (
        <Empty
          title="No traces yet"
          actions={
            <button className="btn primary" onClick={() => void commands.importTraces()}>
              Import traces…
            </button>
          }
        >
          Import trace files (our JSONL, OpenAI chat, Anthropic messages, …) with the button or by dropping them on the window. Every rejected line is reported
          with its line number.
        </Empty>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="task-table">
            <thead>
              <tr>
                <th>Task</th>
                <th className="num">Requests</th>
                <th className="num">Scored</th>
                <th className="num" title="Tools scored on this task (|Aₜ|) of the tools on its menus">
                  Scored tools
                </th>
                <th className="num">Answers</th>
                <th>Space</th>
                <th>Models</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {project.tasks.map((t) => (
                <tr
                  key={t.task}
                  className={`clickable${t.task === selectedTask ? ' selected' : ''}`}
                  aria-current={t.task === selectedTask ? 'true' : undefined}
                  tabIndex={0}
                  onClick={() => openTask(t.task)}
                  onKeyDown={(e) => e.target === e.currentTarget && e.key === 'Enter' && openTask(t.task)}
                  data-task={t.task}
                >
                  <td>
                    <strong>{t.task}</strong>
                    {t.swept ? (
                      <span className="pill" style={{ marginLeft: 6 }}>
                        swept
                      </span>
                    ) : null}
                  </td>
                  <td className="num">{fmtInt(t.requests)}</td>
                  <td className="num">{t.scored === 0 ? <span className="muted">—</span> : fmtInt(t.scored)}</td>
                  <td className="num" data-testid="task-tools">
                    {t.eligible === 0 ? <span className="muted">—</span> : fmtInt(t.eligible)} <span className="muted">of {fmtInt(t.tools)}</span>
                  </td>
                  <td className="num" data-testid="task-answers">
                    <span className="good">{t.correct} right</span> · <span className="bad">{t.wrong} wrong</span>
                    {/* On its own line: beside the rest it pushed the table past 1280 px (issue 40: nothing cut off). */}
                    {t.unlabeled ? (
                      <>
                        <span className="sr-only"> · </span>
                        <div className="muted small">{t.unlabeled} unlabelled</div>
                      </>
                    ) : null}
                  </td>
                  <td className="nowrap">
                    <SpacePill status={t.space.status} version={t.space.version} />
                    {t.space.size !== undefined ? <span className="muted small"> {plural(t.space.size, 'tool')}</span> : null}
                  </td>
                  <td className="small muted ellipsis" style={{ maxWidth: 160 }} title={t.models.join(', ')}>
                    {t.models.join(', ') || '—'}
                  </td>
                  <td className="num">
                    <button
                      className="btn small"
                      onClick={(e) => {
                        e.stopPropagation();
                        openTask(t.task, 'space');
                      }}
                    >
                      Review space
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

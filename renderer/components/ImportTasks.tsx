// The import flow's task labels: the field the next imports read a task from (`lots import --task-field`),
// and, after an import that left traces without a task, the field the records seem to carry (offered) and
// a Route action (`lots route`: the traces without a task are clustered into tasks by their request text).
import { plural } from '../format';
import { routeLine } from '../store/project-slice';
import { useStudio } from '../store/react';

/** The task field sent with every import; empty: the format's own field (BFCL class, GTA type) or none. */
export function ImportTaskField() {
  const field = useStudio((s) => s.importTaskField);
  const setField = useStudio((s) => s.setImportTaskField);
  const importing = useStudio((s) => s.importing);
  return (
    <label className="import-task-field small" title="Dotted path of the task label in each record, as lots import --task-field">
      <span className="muted">Task field</span>{' '}
      <input
        type="text"
        value={field}
        onChange={(e) => setField(e.target.value)}
        placeholder="e.g. metadata.task"
        spellCheck={false}
        disabled={importing}
        aria-label="Task field: dotted path of the task label in each record, read by the next import"
        data-testid="import-task-field"
        style={{ width: 170 }}
      />
    </label>
  );
}

/** Under the import report: how many traces arrived without a task, the field the file suggests, and Route. */
export function ImportUnlabelled() {
  const report = useStudio((s) => s.lastImport);
  const field = useStudio((s) => s.importTaskField);
  const setField = useStudio((s) => s.setImportTaskField);
  const routing = useStudio((s) => s.routing);
  const route = useStudio((s) => s.routeTraces);
  const lastRoute = useStudio((s) => s.lastRoute);
  if (!report) return null;
  const unlabelled = report.files.reduce((n, f) => n + (f.unlabelled ?? 0), 0);
  if (unlabelled === 0 && !lastRoute) return null;
  const guesses = [...new Set(report.files.filter((f) => (f.unlabelled ?? 0) > 0 && f.taskFieldGuess).map((f) => f.taskFieldGuess!))];
  if (lastRoute) {
    return (
      <div className="small" style={{ marginTop: 8 }} role="status" data-testid="route-result">
        {lastRoute.routed > 0 ? (
          <>
            <strong>
              Routed {plural(lastRoute.routed, 'trace')} into {plural(Object.keys(lastRoute.sizes).length, 'task')}:
            </strong>{' '}
            <span className="mono">{routeLine(lastRoute)}</span>
          </>
        ) : (
          'Nothing to route: every trace already has a task.'
        )}
      </div>
    );
  }
  return (
    <div className="small" style={{ marginTop: 8 }} data-testid="import-unlabelled">
      <div>
        <strong>{plural(unlabelled, 'trace')} arrived without a task</strong> and would all land in one unrouted group.
        {guesses.length > 0 && (
          <>
            {' '}
            Their records carry a label at{' '}
            {guesses.map((g, i) => (
              <span key={g}>
                {i > 0 ? ', ' : ''}
                <code>{g}</code>
              </span>
            ))}
            : set it as the task field before importing more of them (traces already imported keep theirs, as a trace id is imported once), or route these.
          </>
        )}
      </div>
      <div className="btn-row" style={{ marginTop: 6 }}>
        {guesses.length > 0 && field.trim() !== guesses[0] && (
          <button className="btn small" onClick={() => setField(guesses[0]!)} data-testid="use-task-field-guess">
            Use {guesses[0]} as the task field
          </button>
        )}
        <button
          className="btn small primary"
          onClick={() => void route()}
          disabled={routing}
          data-testid="route-unlabelled"
          title="Cluster the requests without a task by their text into tasks (lots route)"
        >
          {routing ? <span className="spinner" /> : null} Route the traces without a task
        </button>
      </div>
    </div>
  );
}

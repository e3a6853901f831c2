// The attribution heatmap of a task: requests × tools, I_x(s) per cell; sort, filter, search; click to
// open the trace. Tools outside the current space (K and edits) are greyed; each column is marked with its
// tool's state in the approved space (pinned / deferred / hidden; the proposal's before any approval). Requests without any score
// for the run (a benchmark's unserved requests) are hidden behind a toggle once some request is scored.
import { useMemo } from 'react';
import { useStudio, useTaskView } from '../store/react';
import { Empty } from '../components/Empty';
import { HeatmapCanvas } from '../heatmap/HeatmapCanvas';
import { Legend } from '../heatmap/Legend';
import { spaceMarks } from '../heatmap/space-marks';
import { useDraft } from '../store/react';
import type { CorrectFilter } from '../heatmap/model';
import { useCommands } from '../components/commands-context';
import type { HeatmapModel } from '../heatmap/model';

const FILTERS: [CorrectFilter, string][] = [
  ['all', 'All'],
  ['correct', 'Correct'],
  ['wrong', 'Wrong'],
];

export function HeatmapView() {
  const task = useStudio((s) => s.route.task);
  const model = useTaskView('heatmaps', task);
  const { space } = useDraft(task); // the greying follows the task's draft space, the marks its approved one
  const marks = useMemo(() => spaceMarks(space ?? undefined), [space]);
  const theme = useStudio((s) => s.theme);
  const correct = useStudio((s) => s.hmCorrect);
  const search = useStudio((s) => s.hmSearch);
  const sortTool = useStudio((s) => s.hmSortTool);
  const sortDir = useStudio((s) => s.hmSortDir);
  const setFilter = useStudio((s) => s.setHeatmapFilter);
  const setSearch = useStudio((s) => s.setHeatmapSearch);
  const sortBy = useStudio((s) => s.sortHeatmapBy);
  const openTrace = useStudio((s) => s.openTrace);
  const navigate = useStudio((s) => s.navigate);
  const commands = useCommands();

  if (!task)
    return (
      <Empty
        title="No task selected"
        actions={
          <button className="btn" onClick={() => navigate({ view: 'home' })}>
            Go to the project
          </button>
        }
      >
        Open a project and pick a task.
      </Empty>
    );
  if (!model) return <p className="muted">Loading the heatmap of {task}…</p>;
  const scored = model.means.some((m) => m !== null);
  const nothingScoreable = model.requests.length > 0 && model.requests.every((r) => r.scoreable === false);

  return (
    <>
      <div className="heatmap-toolbar">
        <div className="segmented" role="group" aria-label="Filter by correctness">
          {FILTERS.map(([value, label]) => (
            <button key={value} aria-pressed={correct === value} onClick={() => setFilter(value)}>
              {label}
            </button>
          ))}
        </div>
        <input
          id="heatmap-search"
          type="search"
          placeholder="Search request text or id  ( / )"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          aria-label="Search requests"
          style={{ width: 280 }}
        />
        <span className="muted small">
          {sortTool ? (
            <>
              sorted by <strong>{sortTool}</strong> {sortDir === 'desc' ? '▼' : '▲'}{' '}
              <button className="btn ghost small" onClick={() => sortBy(null)}>
                clear
              </button>
            </>
          ) : (
            'Click a tool name to sort by its scores'
          )}
        </span>
        <span className="topbar-spacer" />
        <Legend scale={model.scale} dark={theme === 'dark'} marks={marks} tools={model.tools} />
      </div>
      {!scored && nothingScoreable && (
        <div className="callout warn" style={{ marginBottom: 10 }} data-testid="heatmap-nothing-scoreable">
          Nothing in this task can be scored: every request&apos;s recorded answer is empty (no final message, no final call), so a scoring run would only count
          its tools as exposed.
        </div>
      )}
      {!scored && !nothingScoreable && (
        <div className="callout warn" style={{ marginBottom: 10 }}>
          No scores for this task yet: the cells show which tools each request exposed.{' '}
          <button className="btn small" onClick={() => navigate({ view: 'jobs' })}>
            Score the project…
          </button>
        </div>
      )}
      {model.hidesUnscored && <UnscoredToggle model={model} />}
      {model.rows === 0 ? (
        <Empty
          title="No requests"
          actions={
            <button className="btn primary" onClick={() => void commands.importTraces()}>
              Import traces…
            </button>
          }
        >
          This task has no requests yet.
        </Empty>
      ) : (
        <HeatmapCanvas model={model} onOpenCell={(id, tool) => void openTrace(id, tool)} />
      )}
    </>
  );
}

/**
 * "12 requests without scores hidden · Show them": the count follows the correctness filter and the
 * search (the model counts, outside React); the button is an ordinary toggle (Tab, Enter or Space).
 */
function UnscoredToggle({ model }: { model: HeatmapModel }) {
  const correct = useStudio((s) => s.hmCorrect);
  const search = useStudio((s) => s.hmSearch);
  const show = useStudio((s) => s.hmShowUnscored);
  const setShow = useStudio((s) => s.setHeatmapShowUnscored);
  const count = useMemo(() => model.countHiddenUnscored({ correct, search, sortTool: null, sortDir: 'desc', showUnscored: false }), [model, correct, search]);
  const noun = `${count} request${count === 1 ? '' : 's'} without scores`;
  const run = model.run ? ` for run ${model.run}` : '';
  return (
    <div className="heatmap-unscored small" data-testid="heatmap-unscored">
      <span
        className="muted"
        data-testid="heatmap-unscored-count"
        data-count={count}
        title={`No cell of these requests was scored${run} (for a benchmark: requests that were never served).`}
        aria-live="polite"
      >
        {show ? `Showing ${noun}` : `${noun} hidden`}
      </span>
      <button type="button" className="btn small" aria-pressed={show} onClick={() => setShow(!show)} data-testid="toggle-unscored">
        {show ? 'Hide them' : 'Show them'}
      </button>
    </div>
  );
}

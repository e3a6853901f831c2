// The attribution heatmap of a task: requests × tools, I_x(s) per cell; sort, filter, search; click to
// open the trace. Tools outside the current space (K and edits) are greyed.
import { useStudio, useTaskView } from '../store/react';
import { Empty } from '../components/Empty';
import { HeatmapCanvas } from '../heatmap/HeatmapCanvas';
import { Legend } from '../heatmap/Legend';
import { useDraft } from '../store/react';
import type { CorrectFilter } from '../heatmap/model';
import { useCommands } from '../app/commands-context';

const FILTERS: [CorrectFilter, string][] = [['all', 'All'], ['correct', 'Correct'], ['wrong', 'Wrong']];

export function HeatmapView() {
  const task = useStudio((s) => s.route.task);
  const model = useTaskView('heatmaps', task);
  useDraft(task); // the greying follows the task's draft space
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

  if (!task) return <Empty title="No task selected" actions={<button className="btn" onClick={() => navigate({ view: 'home' })}>Go to the project</button>}>Open a project and pick a task.</Empty>;
  if (!model) return <p className="muted">Loading the heatmap of {task}…</p>;
  const scored = model.means.some((m) => m !== null);

  return (
    <>
      <div className="heatmap-toolbar">
        <div className="segmented" role="group" aria-label="Filter by correctness">
          {FILTERS.map(([value, label]) => (
            <button key={value} aria-pressed={correct === value} onClick={() => setFilter(value)}>{label}</button>
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
          {sortTool ? <>sorted by <strong>{sortTool}</strong> {sortDir === 'desc' ? '▼' : '▲'} <button className="btn ghost small" onClick={() => sortBy(null)}>clear</button></> : 'Click a tool name to sort by its scores'}
        </span>
        <span className="topbar-spacer" />
        <Legend scale={model.scale} dark={theme === 'dark'} />
      </div>
      {!scored && (
        <div className="callout warn" style={{ marginBottom: 10 }}>
          No scores for this task yet: the cells show which tools each request exposed. <button className="btn small" onClick={() => navigate({ view: 'jobs' })}>Score the project…</button>
        </div>
      )}
      {model.rows === 0 ? (
        <Empty title="No requests" actions={<button className="btn primary" onClick={() => void commands.importTraces()}>Import traces…</button>}>This task has no requests yet.</Empty>
      ) : (
        <HeatmapCanvas model={model} onOpenCell={(id, tool) => void openTrace(id, tool)} />
      )}
    </>
  );
}

// Project and task context, the run shown, and the compact K slider on task views.
import { useShallow } from 'zustand/react/shallow';
import { runLabel } from '../format';
import { selectKept } from '../store/draft-slice';
import { useDraft, useStudio, useTaskView } from '../store/react';
import { TASK_VIEWS } from '../store/types';
import { viewLabel } from '../store/views';

export function TopBar() {
  const view = useStudio((s) => s.route.view);
  const task = useStudio((s) => s.route.task);
  const projectName = useStudio((s) => s.project?.name);
  const projectDir = useStudio((s) => s.project?.dir);
  const tasks = useStudio(useShallow((s) => (s.project?.tasks ?? []).map((t) => t.task)));
  const setTask = useStudio((s) => s.setTask);
  const isTaskView = TASK_VIEWS.includes(view);

  return (
    <header className="topbar">
      <div className="topbar-title">
        <div className="crumb" title={projectDir}>
          {projectName ? `${projectName} · ${projectDir}` : 'No project open'}
        </div>
        <h1>{viewLabel(view)}</h1>
      </div>
      <div className="topbar-spacer" />
      {isTaskView && tasks.length > 0 && (
        <label className="field-inline">
          <span className="muted small">Task</span>
          <select value={task ?? ''} onChange={(e) => setTask(e.target.value)} aria-label="Task">
            {tasks.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      )}
      {isTaskView && task && <RunPicker task={task} />}
      {/* Not on the Space view: it has its own K slider (issue 40: one K per screen). */}
      {task && (view === 'heatmap' || view === 'ranking') && <CompactK task={task} />}
    </header>
  );
}

function RunPicker({ task }: { task: string }) {
  const runs = useStudio(
    useShallow((s) => {
      const mine = new Set(s.project?.tasks.find((t) => t.task === task)?.runs ?? []);
      return (s.project?.runs ?? []).filter((r) => mine.has(r.run));
    }),
  );
  const selected = useStudio((s) => s.runByTask[task] ?? '');
  const setRun = useStudio((s) => s.setRun);
  if (runs.length < 2) return null;
  return (
    <label className="field-inline">
      <span className="muted small">Run</span>
      <select value={selected} onChange={(e) => setRun(task, e.target.value || null)} aria-label="Scoring run">
        <option value="">latest</option>
        {runs.map((r) => (
          <option key={r.run} value={r.run}>
            {runLabel(r.run, r.model)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** K for the task's draft space; the budget view has the large one. */
export function CompactK({ task }: { task: string }) {
  const { space, draft } = useDraft(task);
  const budget = useTaskView('budgets', task);
  const setK = useStudio((s) => s.setK);
  const keptCount = useStudio((s) => selectKept(s, task)?.length ?? 0);
  const max = space?.candidates.filter((c) => c.rank !== null).length ?? 0;
  if (!draft || max === 0) return null;
  return (
    <div className="k-compact" title="Budget K: the top-K ranked tools form the space (plus your pins and edits)">
      <span className="muted small">K</span>
      <input
        type="range"
        min={0}
        max={max}
        step={1}
        value={Math.min(draft.k, max)}
        onChange={(e) => setK(task, Number(e.target.value))}
        aria-label="Budget K"
        data-testid="k-compact"
      />
      <output className="small">
        {draft.k} → {keptCount} kept
      </output>
      {budget?.recommendedK !== null && budget?.recommendedK !== undefined && budget.recommendedK !== draft.k && (
        <button
          className="btn ghost small"
          onClick={() => setK(task, budget.recommendedK!)}
          title={budget.recommendedBy === 'sweep' ? 'Smallest K at the best fitting accuracy' : 'Every tool with a positive score (no sweep yet)'}
        >
          use {budget.recommendedK}
        </button>
      )}
    </div>
  );
}

// Budget sweep & K slider: curves against K (measured fitting accuracy where swept, the additive
// surrogate F̂, tool-definition and prompt tokens, baselines) and a slider whose every move updates
// the kept set, the heatmap greying and the curve markers in the same frame. With the three states
// (docs/spaces.md) the slider's K pins the top K, defers the task's other ranked tools and hides the
// rest (the proposal's rule, with the space editor's edits): the view lists the three and what the menu
// costs per request pinned only, pinned + deferred (demoted: name and one line, no schema) and keep-all.
import { useMemo } from 'react';
import { Empty } from '../components/Empty';
import { fmtInt, fmtPercent, fmtScore } from '../format';
import { selectStates } from '../store/draft-slice';
import { useDraft, useStudio, useTaskView } from '../store/react';
import { useChartColors } from './chart-colors';
import { CostChart, FitChart, type ChartPoint } from './BudgetCharts';
import { describeGrid, wilson } from './budget-stats';
import { ownValue } from '../../shared/trace/own-record';
import { ToolStatePill } from './ToolState';
import { MenuCost } from './budget/MenuCost';
import { fmtCi, Readout } from './budget/Readout';
import { SweepCard } from './budget/SweepCard';

export function BudgetView() {
  const task = useStudio((s) => s.route.task);
  const budget = useTaskView('budgets', task);
  const { draft, space } = useDraft(task);
  const states = useStudio((s) => selectStates(s, task));
  const setK = useStudio((s) => s.setK);
  const navigate = useStudio((s) => s.navigate);
  const project = useStudio((s) => s.project);
  const colors = useChartColors();
  const data = useMemo<ChartPoint[]>(
    () =>
      (budget?.points ?? []).map((p) => {
        const ci = p.accuracy !== null && p.n ? wilson(p.accuracy, p.n) : null;
        return { ...p, band: ci ? [ci.lo, ci.hi] : null, withDeferred: p.schemaTokens + p.deferredTokens };
      }),
    [budget],
  );
  const fitBaselines = useMemo(() => (budget?.baselines ?? []).filter((b) => b.split !== 'eval'), [budget]);

  if (!task) return <Empty title="No task selected">Pick a task on the project view.</Empty>;
  if (!budget || !space) return <p className="muted">Loading the budget curves of {task}…</p>;
  if (budget.ranking.length === 0) {
    return (
      <Empty
        title="No ranking to size yet"
        actions={
          <button className="btn primary" onClick={() => navigate({ view: 'jobs' })}>
            Score the project…
          </button>
        }
      >
        The budget curves need attribution scores for this task.
      </Empty>
    );
  }
  const max = budget.ranking.length;
  const k = Math.min(draft?.k ?? budget.recommendedK ?? max, max);
  const point = budget.points[k];
  const keptTools = states?.pinned ?? [];
  const deferredTools = states?.deferred ?? [];
  const shown = new Set([...keptTools, ...deferredTools]);
  const hiddenTools = Object.keys(budget.toolSchemaTokens).filter((t) => !shown.has(t));
  const keptTokens = keptTools.reduce((n, t) => n + (ownValue(budget.toolSchemaTokens, t) ?? 0), 0);
  const deferredTokens = deferredTools.reduce((n, t) => n + (ownValue(budget.toolDemotedTokens, t) ?? 0), 0);
  const deferredFull = deferredTools.reduce((n, t) => n + (ownValue(budget.toolSchemaTokens, t) ?? 0), 0);
  const swept = budget.points.some((p) => p.accuracy !== null);
  const hasPrompt = budget.points.some((p) => p.promptTokens !== null);
  const rec = budget.recommendedK;
  const measured = budget.points.filter((p) => p.accuracy !== null).map((p) => p.k);
  const edited = draft
    ? draft.pinned.length + draft.banned.length + draft.added.length + draft.removed.length + draft.deferred.length + draft.hidden.length > 0
    : false;

  return (
    <div className="budget">
      <div className="card budget-slider">
        <div className="budget-slider-row">
          <label htmlFor="k-slider">
            <strong>Budget K</strong>
          </label>
          <input
            id="k-slider"
            type="range"
            min={0}
            max={max}
            step={1}
            value={k}
            onChange={(e) => task && setK(task, Number(e.target.value))}
            list="k-ticks"
            aria-valuetext={`K = ${k}: ${keptTools.length} pinned, ${deferredTools.length} deferred, ${hiddenTools.length} hidden`}
            data-testid="k-slider"
          />
          <datalist id="k-ticks">
            {budget.points.map((p) => (
              <option key={p.k} value={p.k} />
            ))}
          </datalist>
          <output className="k-value tabular" data-testid="k-value">
            K = {k}
          </output>
          {rec !== null && (
            <button
              className="btn small"
              onClick={() => task && setK(task, rec)}
              disabled={rec === k}
              title={
                budget.recommendedBy === 'sweep'
                  ? 'Smallest K at the best fitting accuracy'
                  : 'F̂ is largest when every tool with a positive score is kept (no sweep yet)'
              }
            >
              Recommended K = {rec} <span className="muted tiny">({budget.recommendedBy === 'sweep' ? 'sweep' : 'surrogate'})</span>
            </button>
          )}
        </div>
        <div className="budget-readout">
          <Readout
            label="pinned tools"
            value={`${keptTools.length} of ${budget.menuSize}`}
            hint={`+ ${deferredTools.length} deferred · ${hiddenTools.length} hidden`}
            testId="readout-states"
          />
          <Readout
            label="F̂ at K"
            value={fmtScore(point?.surrogate, 4)}
            hint={budget.fullValue === null ? 'relative to the full menu' : 'mean log-likelihood'}
          />
          <Readout
            label="fitting accuracy"
            value={point?.accuracy !== null && point?.accuracy !== undefined ? fmtPercent(point.accuracy, 1) : '—'}
            hint={
              !swept
                ? 'not swept'
                : point?.accuracy !== null && point?.accuracy !== undefined && point.n
                  ? `${fmtCi(wilson(point.accuracy, point.n))} · n = ${point.n}`
                  : `not measured at K = ${k}`
            }
            testId="readout-accuracy"
          />
          <Readout
            label="tool-definition tokens"
            value={fmtInt(keptTokens)}
            hint={`${fmtPercent(budget.menuSchemaTokens ? 1 - keptTokens / budget.menuSchemaTokens : 0)} saved vs keep-all${budget.schemaTokensEstimated ? ' · estimated' : ''}`}
          />
        </div>
        {budget.recommendedBy === 'sweep' && budget.sweep?.withoutEvidence && (
          <p className="callout small" data-testid="sweep-without-evidence" style={{ margin: '8px 0' }}>
            The sweep cannot choose here: no K answered a fitting request right, so the rule (the smallest K at the best accuracy) keeps K = {rec} by default,
            not on evidence.
            {budget.surrogateK !== null && budget.surrogateK !== rec && (
              <>
                {' '}
                The ranking alone keeps K = {budget.surrogateK} (every tool with a positive score, where F̂ is largest):{' '}
                <button className="btn small" onClick={() => task && setK(task, budget.surrogateK!)} disabled={budget.surrogateK === k}>
                  use K = {budget.surrogateK}
                </button>
              </>
            )}{' '}
            Fitting requests the model answers right under some K would let the sweep decide.
          </p>
        )}
        {swept && (point?.accuracy === null || point?.accuracy === undefined) && (
          <p className="callout small" data-testid="k-outside-sweep" style={{ margin: '8px 0' }}>
            The sweep measured K = {describeGrid(measured)}; K = {k} was not measured, so its fitting accuracy is unknown. To measure it:{' '}
            <code>
              lots sweep --project {project?.dir ?? '<project>'} --model {'<model.gguf>'} --task {task} --k {k}
            </code>{' '}
            (points already measured are reused).
          </p>
        )}
        <div className="budget-states" data-testid="budget-states" aria-live="polite">
          <StateRow
            state="pinned"
            note="in full"
            testId="kept-set"
            extraClass="kept-chips"
            empty="No tools pinned at K = 0."
            tools={keptTools}
            chipClass={(t) => `${draft?.pinned.includes(t) ? ' pinned' : ''}${draft?.added.includes(t) ? ' added' : ''}`}
          />
          <StateRow
            state="deferred"
            note="callable"
            testId="deferred-set"
            empty={
              draft && draft.hidden.length > 0
                ? `None: ${draft.baseVersion !== null ? `approved version ${draft.baseVersion}` : 'the draft'} hides the other ranked tools (defer them in the Space view).`
                : 'None: every ranked tool is pinned.'
            }
            tools={deferredTools}
            chipClass={() => ' deferred'}
          />
          <StateRow state="hidden" note="not offered" testId="hidden-set" empty="None." tools={hiddenTools} chipClass={() => ' hidden-tool'} />
          <p className="tiny muted budget-states-rule">
            The proposal’s rule at K = {k}: the top {k} pinned, the task’s other ranked tools deferred, tools never scored hidden
            {edited
              ? draft?.baseVersion !== null && draft?.baseVersion !== undefined
                ? `; with the edits of approved version ${draft.baseVersion} and the space editor`
                : '; with your edits from the space editor'
              : ''}
            .
          </p>
        </div>
        <MenuCost budget={budget} pinned={keptTokens} deferred={deferredTokens} deferredFull={deferredFull} deferredCount={deferredTools.length} k={k} />
      </div>

      <div className="grid-2" style={{ marginTop: 14 }}>
        {swept && <FitChart task={task} budget={budget} data={data} max={max} mode="accuracy" baselines={fitBaselines} colors={colors} />}
        <FitChart task={task} budget={budget} data={data} max={max} mode="surrogate" baselines={[]} colors={colors} />
        <CostChart task={task} budget={budget} data={data} max={max} hasPrompt={hasPrompt} colors={colors} />
      </div>

      <SweepCard budget={budget} />
    </div>
  );
}

/** One state's row of chips at K: its pill, what the state means, the tools in it (or why none). */
function StateRow(props: {
  state: 'pinned' | 'deferred' | 'hidden';
  note: string;
  testId: string;
  extraClass?: string;
  empty: string;
  tools: readonly string[];
  chipClass: (tool: string) => string;
}) {
  return (
    <div className="budget-state-row" data-state={props.state}>
      <span className="budget-state-label">
        <ToolStatePill state={props.state} />
        <span className="tiny muted">{props.note}</span>
      </span>
      <div className={`chips${props.extraClass ? ` ${props.extraClass}` : ''}`} data-testid={props.testId}>
        {props.tools.length === 0 ? (
          <span className="muted small">{props.empty}</span>
        ) : (
          props.tools.map((t) => (
            <span key={t} className={`chip${props.chipClass(t)}`}>
              {t}
            </span>
          ))
        )}
      </div>
    </div>
  );
}

// The demo: one click builds the built-in benchmark project, then a guided walk through
// score → rank → sweep → approve → export, each step a button that does it for real.
import { useEffect, useState, type ReactNode } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { DemoData } from '../../shared/api';
import { accuracyChart, accuracyTokensChart, growthChart, METHOD_LABELS, methodLabel, tokensChart } from '../../shared/export/demo-report';
import { costHtml, pairedHtml } from '../../shared/export/demo-statistics';
import { downloadText } from '../api/files';
import { DEMO_STEPS, DEMO_TASK, type DemoStep } from '../store/demo-slice';
import { fmtInt } from '../format';
import { useApi, useStudio } from '../store/react';
import { DemoRunCard } from './DemoRunCard';
import { DemoHeadline, DemoProvenance } from './DemoHeadline';
import { DemoDifferences } from './DemoDifferences';
import { DemoReference, DemoSeeds } from './DemoReference';
import { useCanWrite, useViewOnly, VIEW_ONLY_REASON, ViewOnlyNote } from '../components/ViewOnly';

const TEXT: Record<DemoStep, [string, string]> = {
  build: ['Build the benchmark project', 'Deterministic scenes, ten task families, tool chains and distractors, gold answers, fitting/evaluation splits.'],
  score: [
    'Score',
    'Teacher-forced likelihood of each frozen answer with and without each tool’s evidence, on a local model (the built-in reference model needs no download).',
  ],
  rank: ['Rank', 'Per task, the mean score Ī over the requests that exposed the tool, with bootstrap intervals.'],
  sweep: ['Sweep the budget', 'Serve the fitting requests under the top-K space for every K; the smallest K at the best accuracy is recommended.'],
  approve: ['Approve', 'Accept the recommended space (or edit it, with a note); every approved version is kept.'],
  export: ['Export', 'Ship the space to an agent: OpenAI / Anthropic tools, MCP allow-list, names, and a one-page report.'],
};

export function DemoView() {
  const project = useStudio((s) => s.project);
  const data = useStudio((s) => s.demoData);
  const loadDemo = useStudio((s) => s.loadDemo);
  const revision = project ? `${project.dir}|${project.runs.length}|${project.tasks.length}` : '';
  useEffect(() => {
    void loadDemo();
  }, [revision, loadDemo]);
  const hasStory = Boolean(project && data && data.tasks.length > 0);
  // The view-only link may not read the demo settings or start a run (access.ts): no run card then.
  const canWrite = useCanWrite();
  const runCard = canWrite ? <DemoRunCard /> : <ViewOnlyNote what="Running the demo and its steps" />;
  return (
    <div style={{ maxWidth: 1180 }}>
      {hasStory && data ? <DemoStory data={data} /> : null}
      {hasStory ? <div style={{ marginTop: 22 }}>{runCard}</div> : null}
      <DemoWalk compact={hasStory} runCard={hasStory ? null : runCard} />
    </div>
  );
}

/** The demo project in one screen: what was measured, per method and per family. */
function DemoStory({ data }: { data: DemoData }) {
  const project = useStudio((s) => s.project);
  const navigate = useStudio((s) => s.navigate);
  const setTask = useStudio((s) => s.setTask);
  const fail = useStudio((s) => s.fail);
  const api = useApi();
  const r = data.record;
  const open = (task: string, view: 'heatmap' | 'ranking' | 'space') => {
    setTask(task);
    navigate({ view, task });
  };
  const report = async () => {
    try {
      const out = await api.renderDemoReport();
      downloadText(out.filename, out.html, 'text/html');
    } catch (e) {
      fail(e, 'The demo report was not rendered');
    }
  };
  const growth = r && r.growth.length > 1 ? growthChart(r.growth) : '';
  const paired = pairedHtml(data.paired, METHOD_LABELS, 'table');
  const cost = costHtml(data.cost, METHOD_LABELS, 'table');
  return (
    <section className="demo-story" data-testid="demo-story" aria-label="Demo results">
      <div className="view-header">
        <div>
          <h1>What LOTS did on {project?.name ?? 'this project'}</h1>
          <DemoHeadline data={data} />
          <DemoProvenance data={data} />
        </div>
        <div className="field-row">
          <button className="btn" onClick={() => void report()} data-testid="demo-report">
            Download the report
          </button>
        </div>
      </div>
      <div className="demo-charts">
        <div className="card">
          <div className="card-head">
            <h2>Accuracy per method</h2>
            <span className="small muted">mean over families</span>
          </div>
          <div className="svg-chart" dangerouslySetInnerHTML={{ __html: accuracyChart(data) }} />
        </div>
        <div className="card">
          <div className="card-head">
            <h2>Prompt tokens per request</h2>
            <span className="small muted">evaluation requests</span>
          </div>
          <div className="svg-chart" dangerouslySetInnerHTML={{ __html: tokensChart(data) }} />
        </div>
        <div className="card" data-testid="demo-accuracy-tokens">
          <div className="card-head">
            <h2>Accuracy against prompt tokens</h2>
            <span className="small muted">up and to the left is better</span>
          </div>
          <div className="svg-chart" dangerouslySetInnerHTML={{ __html: accuracyTokensChart(data) }} />
        </div>
        {growth ? (
          <div className="card" data-testid="demo-growth">
            <div className="card-head">
              <h2>As the registry grows</h2>
              <span className="small muted">{families(r!.growth[0]!.families.length)}</span>
            </div>
            <div className="svg-chart" dangerouslySetInnerHTML={{ __html: growth }} />
          </div>
        ) : null}
      </div>
      <div className="card" style={{ marginTop: 14 }}>
        <div className="card-head">
          <h2>Per family: the kept tools against the gold chain</h2>
          <span className="small muted">green: in the chain · red: not</span>
        </div>
        <table className="table demo-families" data-testid="demo-families">
          <thead>
            <tr>
              <th>Family</th>
              <th className="num">K</th>
              <th>Kept by LOTS</th>
              <th>Gold chain</th>
              <th className="num">LOTS fit / eval</th>
              <th className="num">Keep-all fit / eval</th>
              <th>Open</th>
            </tr>
          </thead>
          <tbody>
            {data.tasks.map((t) => {
              const chain = new Set(t.chain);
              const cell = (m: string) => {
                const c = t.methods[m];
                const f = (x: number | undefined) => (x === undefined ? '—' : x.toFixed(2));
                return `${f(c?.fit?.accuracy)} / ${f(c?.eval?.accuracy)}`;
              };
              return (
                <tr key={t.task}>
                  <td>
                    <strong>{t.task}</strong>
                  </td>
                  <td className="num">{t.k}</td>
                  <td>
                    {t.kept.map((tool) => (
                      <span key={tool} className={`pill ${chain.has(tool) ? 'good' : 'bad'}`} style={{ marginRight: 4 }}>
                        {tool}
                      </span>
                    ))}
                  </td>
                  <td className="small text-2">{t.chain.length ? t.chain.join(' → ') : '(no tool)'}</td>
                  <td className="num tabular">{cell('lots')}</td>
                  <td className="num tabular">{cell('keep-all')}</td>
                  <td className="nowrap">
                    <button className="btn small ghost" onClick={() => open(t.task, 'heatmap')} aria-label={`Heatmap of ${t.task}`}>
                      Heatmap
                    </button>
                    <button className="btn small ghost" onClick={() => open(t.task, 'ranking')} aria-label={`Ranking of ${t.task}`}>
                      Ranking
                    </button>
                    <button className="btn small ghost" onClick={() => open(t.task, 'space')} aria-label={`Space of ${t.task}`}>
                      Space
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <p className="small muted" style={{ marginTop: 6 }}>
          Methods compared: {data.methods.map(methodLabel).join(', ')}. Accuracy: the first number of the answer within max(0.01, 0.1%) of the gold value.
        </p>
      </div>
      <DemoReference data={data} />
      <DemoSeeds data={data} />
      <DemoDifferences data={data} />
      {paired ? (
        <div className="card demo-stat" style={{ marginTop: 14 }}>
          <div className="card-head">
            <h2>Is the difference real? LOTS minus each baseline</h2>
            <span className="small muted">paired on the same evaluation requests</span>
          </div>
          <div className="table-scroll" dangerouslySetInnerHTML={{ __html: paired }} />
        </div>
      ) : null}
      {cost ? (
        <div className="card demo-stat" style={{ marginTop: 14 }}>
          <div className="card-head">
            <h2>The cost of selection</h2>
            <span className="small muted">prompt tokens the model read to choose, and when it pays back</span>
          </div>
          <div className="table-scroll" dangerouslySetInnerHTML={{ __html: cost }} />
        </div>
      ) : null}
    </section>
  );
}

/** The guided walk: build the benchmark project, then each step for real on this machine. `runCard`: the
 * "Run the demo" card, shown under the header when there is no story above. */
function DemoWalk({ compact, runCard }: { compact: boolean; runCard: ReactNode }) {
  const done = useStudio(useShallow((s) => s.demoDone));
  const busy = useStudio((s) => s.demoBusy);
  const project = useStudio((s) => s.project);
  const task = useStudio((s) => s.route.task);
  const demoJob = useStudio(useShallow((s) => s.jobs.find((j) => j.id === s.demoJob) ?? null));
  const runDemoStep = useStudio((s) => s.runDemoStep);
  const setTask = useStudio((s) => s.setTask);
  const [dir, setDir] = useState('');
  const [size, setSize] = useState<'quick' | 'full'>('quick');
  const jobRunning = demoJob !== null && (demoJob.status === 'running' || demoJob.status === 'queued');
  const viewOnly = useViewOnly();

  const enabled = (step: DemoStep, i: number): boolean => {
    if (viewOnly || busy || jobRunning) return false;
    if (step === 'build') return true;
    if (!project) return false;
    const prev = DEMO_STEPS[i - 1]!;
    return Boolean(done[prev]) || Boolean(inProject[prev]) || (step === 'rank' && project.runs.length > 0);
  };
  // What the open project already holds counts as done (issue 40: the sample is scored, swept and approved).
  const inProject: Partial<Record<DemoStep, boolean>> = project
    ? {
        build: project.tasks.length > 0,
        score: project.runs.length > 0,
        rank: project.runs.length > 0,
        sweep: project.tasks.some((t) => t.swept),
        approve: project.tasks.some((t) => t.space.status === 'approved'),
      }
    : {};
  const ticked = (step: DemoStep): boolean => Boolean(done[step]) || Boolean(inProject[step]);
  /** Why a step's button is disabled (issue 40: never without a reason). */
  const reason = (step: DemoStep, i: number): string | null => {
    if (enabled(step, i)) return null;
    if (viewOnly) return `Off: ${VIEW_ONLY_REASON}.`;
    if (busy || jobRunning) return 'Wait for the running step to finish.';
    if (!project) return 'Build the benchmark project first (step 1).';
    return `Run “${TEXT[DEMO_STEPS[i - 1]!][0]}” first (step ${i}).`;
  };

  return (
    <div style={{ maxWidth: 980, marginTop: compact ? 22 : 0 }}>
      <div className="view-header">
        <div>
          {compact ? <h2>Walk through it step by step</h2> : <h1>See LOTS work end to end</h1>}
          <p className="lede">
            The built-in benchmark has hidden scenes and known tool chains, so you can watch the method find the tools each task relies on, size the space, and
            ship it. Every step below runs for real on this machine.
          </p>
        </div>
      </div>
      {runCard ? (
        <>
          {runCard}
          <h2 style={{ margin: '0 0 10px' }}>Or walk through it step by step</h2>
        </>
      ) : null}
      {project && task && (
        <div className="field-row" style={{ marginBottom: 12, alignItems: 'center' }}>
          <span className="small text-2">
            Project <strong>{project.name}</strong> · {fmtInt(project.traces)} traces · task
          </span>
          <select value={task} onChange={(e) => setTask(e.target.value)} aria-label="Demo task">
            {project.tasks.map((t) => (
              <option key={t.task} value={t.task}>
                {t.task}
              </option>
            ))}
          </select>
        </div>
      )}
      <ol className="demo-steps" data-testid="demo-steps">
        {DEMO_STEPS.map((step, i) => (
          <li key={step} className={`demo-step${ticked(step) ? ' done' : ''}`} data-done={ticked(step) ? 'true' : undefined}>
            <span className="demo-num">{ticked(step) ? '✓' : i + 1}</span>
            <div className="demo-body">
              <strong>{TEXT[step][0]}</strong>
              <p className="small text-2">{TEXT[step][1]}</p>
              {reason(step, i) && (
                <p className="tiny muted" id={`demo-why-${step}`} data-testid={`demo-why-${step}`}>
                  {reason(step, i)}
                </p>
              )}
              {step === 'build' && !done.build && (
                <div className="field-row" style={{ marginTop: 6 }}>
                  <select value={size} onChange={(e) => setSize(e.target.value as 'quick' | 'full')} aria-label="Demo size">
                    <option value="quick">Quick: one family ({DEMO_TASK}), about a minute on a CPU</option>
                    <option value="full">Full: all ten families, several minutes on a CPU</option>
                  </select>
                  <input
                    className="grow"
                    type="text"
                    value={dir}
                    onChange={(e) => setDir(e.target.value)}
                    placeholder="Folder (default: in the Studio's data folder)"
                    aria-label="Demo project folder"
                  />
                </div>
              )}
              {(step === 'score' || step === 'sweep') && demoJob && done[step] && !done[DEMO_STEPS[i + 1]!] && (
                <div style={{ marginTop: 6 }}>
                  <div className={`progress ${demoJob.status}`}>
                    <div style={{ width: `${demoJob.total ? (100 * demoJob.done) / demoJob.total : 0}%` }} />
                  </div>
                  <div className="small muted tabular" style={{ marginTop: 2 }}>
                    {demoJob.status} · {demoJob.done}/{demoJob.total} {demoJob.unit}
                  </div>
                </div>
              )}
            </div>
            <button
              className={`btn${enabled(step, i) && !done[step] ? ' primary' : ''}`}
              disabled={!enabled(step, i)}
              aria-describedby={reason(step, i) ? `demo-why-${step}` : undefined}
              onClick={() => void runDemoStep(step, { dir, size })}
              data-testid={`demo-${step}`}
            >
              {busy && step === 'build' ? <span className="spinner" /> : null}
              {ticked(step) ? 'Again' : 'Run'}
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}

const families = (n: number): string => (n === 1 ? '1 family' : `${n} families`);

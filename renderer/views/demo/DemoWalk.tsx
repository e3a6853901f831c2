// The Demo view's guided walk: each step's text, why it is disabled, and its Run button.
import { useState, type ReactNode } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { fmtInt } from '../../format';
import { DEMO_STEPS, DEMO_TASK, type DemoStep } from '../../store/demo-slice';
import { useStudio } from '../../store/react';
import { useViewOnly, VIEW_ONLY_REASON } from '../../components/ViewOnly';

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

/** The guided walk: build the benchmark project, then each step for real on this machine. `runCard`: the
 * "Run the demo" card, shown under the header when there is no story above. */
export function DemoWalk({ compact, runCard }: { compact: boolean; runCard: ReactNode }) {
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

// The demo: one click builds the built-in benchmark project, then a guided walk through
// score → rank → sweep → approve → export, each step a button that does it for real.
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { DEMO_STEPS, DEMO_TASK, type DemoStep } from '../store/demo-slice';
import { fmtInt } from '../format';
import { useStudio, useStudioStore } from '../store/react';

const TEXT: Record<DemoStep, [string, string]> = {
  build: ['Build the benchmark project', 'Deterministic scenes, ten task families, tool chains and distractors, gold answers, fitting/evaluation splits.'],
  score: ['Score', 'Teacher-forced likelihood of each frozen answer with and without each tool’s evidence, on a local model (the built-in reference model needs no download).'],
  rank: ['Rank', 'Per task, the mean score Ī over the requests that exposed the tool, with bootstrap intervals.'],
  sweep: ['Sweep the budget', 'Serve the fitting requests under the top-K space for every K; the smallest K at the best accuracy is recommended.'],
  approve: ['Approve', 'Accept the recommended space (or edit it, with a note); every approved version is kept.'],
  export: ['Export', 'Ship the space to an agent: OpenAI / Anthropic tools, MCP allow-list, names, and a one-page report.'],
};

export function DemoView() {
  const done = useStudio(useShallow((s) => s.demoDone));
  const busy = useStudio((s) => s.demoBusy);
  const project = useStudio((s) => s.project);
  const task = useStudio((s) => s.route.task);
  const demoJob = useStudio(useShallow((s) => s.jobs.find((j) => j.id === s.demoJob) ?? null));
  const buildDemo = useStudio((s) => s.buildDemo);
  const markDemo = useStudio((s) => s.markDemo);
  const setDemoJob = useStudio((s) => s.setDemoJob);
  const useReference = useStudio((s) => s.useReferenceModel);
  const startScoring = useStudio((s) => s.startScoring);
  const startSweep = useStudio((s) => s.startSweep);
  const navigate = useStudio((s) => s.navigate);
  const setTask = useStudio((s) => s.setTask);
  const setK = useStudio((s) => s.setK);
  const acceptDraft = useStudio((s) => s.acceptDraft);
  const loadBudget = useStudio((s) => s.loadBudget);
  const loadSpaces = useStudio((s) => s.loadSpaces);
  const ensureDraft = useStudio((s) => s.ensureDraft);
  const [dir, setDir] = useState('');
  const [size, setSize] = useState<'quick' | 'full'>('quick');
  // Read at click time (not subscribed): the approve step needs the freshly loaded recommended K.
  const store = useStudioStore();
  const jobRunning = demoJob !== null && (demoJob.status === 'running' || demoJob.status === 'queued');

  const run: Record<DemoStep, () => Promise<void>> = {
    build: async () => {
      await buildDemo({ ...(dir.trim() ? { dir: dir.trim() } : {}), ...(size === 'quick' ? { families: [DEMO_TASK] } : {}) });
    },
    score: async () => {
      const model = await useReference();
      if (!model) return;
      const job = await startScoring({ model, intervention: 'reexecute' });
      if (job) {
        setDemoJob(job.id);
        markDemo('score');
      }
    },
    rank: async () => {
      markDemo('rank');
      navigate({ view: 'ranking' });
    },
    sweep: async () => {
      const model = await useReference();
      if (!model || !task) return;
      const job = await startSweep({ task, model, baselines: true });
      if (job) {
        setDemoJob(job.id);
        markDemo('sweep');
      }
    },
    approve: async () => {
      if (!task) return;
      await Promise.all([loadBudget(task), loadSpaces(task)]);
      ensureDraft(task);
      const rec = store.getState().budgets[task]?.value.recommendedK;
      if (rec !== null && rec !== undefined) setK(task, rec);
      if (await acceptDraft(task)) markDemo('approve');
    },
    export: async () => {
      markDemo('export');
      navigate({ view: 'export' });
    },
  };

  const enabled = (step: DemoStep, i: number): boolean => {
    if (busy || jobRunning) return false;
    if (step === 'build') return true;
    if (!project) return false;
    const prev = DEMO_STEPS[i - 1]!;
    return Boolean(done[prev]) || (step === 'rank' && project.runs.length > 0);
  };

  return (
    <div style={{ maxWidth: 980 }}>
      <div className="view-header">
        <div>
          <h1>See LOTS work end to end</h1>
          <p className="lede">
            The built-in benchmark has hidden scenes and known tool chains, so you can watch the method find the tools each task relies on,
            size the space, and ship it. Every step below runs for real on this machine.
          </p>
        </div>
      </div>
      {project && task && (
        <div className="field-row" style={{ marginBottom: 12, alignItems: 'center' }}>
          <span className="small text-2">Project <strong>{project.name}</strong> · {fmtInt(project.traces)} traces · task</span>
          <select value={task} onChange={(e) => setTask(e.target.value)} aria-label="Demo task">
            {project.tasks.map((t) => <option key={t.task} value={t.task}>{t.task}</option>)}
          </select>
        </div>
      )}
      <ol className="demo-steps" data-testid="demo-steps">
        {DEMO_STEPS.map((step, i) => (
          <li key={step} className={`demo-step${done[step] ? ' done' : ''}`}>
            <span className="demo-num">{done[step] ? '✓' : i + 1}</span>
            <div className="demo-body">
              <strong>{TEXT[step][0]}</strong>
              <p className="small text-2">{TEXT[step][1]}</p>
              {step === 'build' && !done.build && (
                <div className="field-row" style={{ marginTop: 6 }}>
                  <select value={size} onChange={(e) => setSize(e.target.value as 'quick' | 'full')} aria-label="Demo size">
                    <option value="quick">Quick: one family ({DEMO_TASK}), about a minute on a CPU</option>
                    <option value="full">Full: all ten families, several minutes on a CPU</option>
                  </select>
                  <input className="grow" type="text" value={dir} onChange={(e) => setDir(e.target.value)} placeholder="Folder (default: in the Studio's data folder)" aria-label="Demo project folder" />
                </div>
              )}
              {(step === 'score' || step === 'sweep') && demoJob && done[step] && !done[DEMO_STEPS[i + 1]!] && (
                <div style={{ marginTop: 6 }}>
                  <div className={`progress ${demoJob.status}`}><div style={{ width: `${demoJob.total ? (100 * demoJob.done) / demoJob.total : 0}%` }} /></div>
                  <div className="small muted tabular" style={{ marginTop: 2 }}>{demoJob.status} · {demoJob.done}/{demoJob.total} {demoJob.unit}</div>
                </div>
              )}
            </div>
            <button className={`btn${enabled(step, i) && !done[step] ? ' primary' : ''}`} disabled={!enabled(step, i)} onClick={() => void run[step]()} data-testid={`demo-${step}`}>
              {busy && step === 'build' ? <span className="spinner" /> : null}
              {done[step] ? 'Again' : 'Run'}
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}

// "Run the demo": `lots demo` from the Studio, as a job of the engine (the same runDemo as the CLI). The
// form: output folder, model (the default real model once pulled, or the generated reference model,
// named for what it is), preset, families, registry sizes. Then the job's steps — done, running with
// their counts, waiting — with Cancel, Resume (after a cancel, a failure, or a restart of the Studio:
// the same folder continues where it stopped), and the demo project opened when it is done.
import { useEffect, useState, type ReactNode } from 'react';
import type { ApiInput, DemoSetup, JobInfo, JobStep } from '../../shared/api';
import { useStudio } from '../store/react';

type ModelChoice = 'default' | 'reference' | 'file';

/** The newest demo job: the one the card follows. */
function latestDemo(jobs: readonly JobInfo[]): JobInfo | null {
  let latest: JobInfo | null = null;
  for (const j of jobs) if (j.kind === 'demo' && (!latest || j.createdAt >= latest.createdAt)) latest = j;
  return latest;
}

/** "15, 30,60" → [15, 30, 60]; a string says what is wrong. */
export function parseRegistrySizes(text: string, setup: DemoSetup): number[] | string {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  const sizes: number[] = [];
  for (const p of parts) {
    const n = Number(p);
    if (!Number.isInteger(n) || n < setup.registry.min || n > setup.registry.max)
      return `registry sizes are whole numbers between ${setup.registry.min} and ${setup.registry.max}; "${p}" is not`;
    sizes.push(n);
  }
  return [...new Set(sizes)].sort((a, b) => a - b);
}

type PresetName = 'quick' | 'standard' | 'full';
const PRESET_TITLE: Record<PresetName, string> = { quick: 'Quick', standard: 'Standard', full: 'Full' };

function presetText(setup: DemoSetup, name: PresetName): string {
  const p = setup.presets[name];
  const ks = p.kMax === null ? 'every budget K' : `budgets K = 1…${p.kMax}`;
  return `${PRESET_TITLE[name]}: ${p.fit} fitting + ${p.eval} evaluation requests per family, ${ks}, ${p.draws} Random draws`;
}

const PRESET_NOTE: Record<PresetName, string> = {
  quick:
    'About 27 minutes for all ten families with the default model on a 2-core CPU, plus the model-asking baselines; minutes with the reference model or one family.',
  standard:
    'Sized for paired intervals over 400 evaluation requests: about 2½ hours for all ten families with the default model on a 2-core CPU and the four baselines that call no model (estimated from a measured run), more with the model-asking ones. It resumes when stopped.',
  full: 'The paper’s protocol: hours to days on a CPU.',
};

export function DemoRunCard() {
  const setup = useStudio((s) => s.demoSetup);
  const loadSetup = useStudio((s) => s.loadDemoSetup);
  const job = useStudio((s) => latestDemo(s.jobs));
  const [another, setAnother] = useState(false);
  useEffect(() => {
    void loadSetup();
  }, [loadSetup]);
  const showForm = !job || another;
  return (
    <section className="card demo-run" aria-labelledby="demo-run-title" data-testid="demo-run">
      <div className="card-head">
        <h2 id="demo-run-title">Run the demo</h2>
        <span className="sub">
          the whole loop, as <code>lots demo</code> runs it: make → serve → score → sweep → evaluate
        </span>
      </div>
      {showForm ? (
        setup ? (
          <DemoRunForm setup={setup} onStarted={() => setAnother(false)} onBack={job ? () => setAnother(false) : undefined} />
        ) : (
          <p className="small muted">Reading the demo settings…</p>
        )
      ) : (
        <DemoRunProgress job={job} onAnother={() => setAnother(true)} />
      )}
    </section>
  );
}

function DemoRunForm({ setup, onStarted, onBack }: { setup: DemoSetup; onStarted: () => void; onBack?: () => void }) {
  const startDemo = useStudio((s) => s.startDemo);
  const navigate = useStudio((s) => s.navigate);
  const pulled = setup.defaultModel.path;
  const [dir, setDir] = useState(setup.defaultDir);
  const [model, setModel] = useState<ModelChoice | null>(pulled ? 'default' : null);
  const [file, setFile] = useState('');
  const [preset, setPreset] = useState<PresetName>('quick');
  const [families, setFamilies] = useState<string[]>(setup.families);
  const [registry, setRegistry] = useState(String(setup.registry.default));
  const [busy, setBusy] = useState(false);
  const sizes = parseRegistrySizes(registry, setup);
  const problem = !dir.trim()
    ? 'Give an output folder.'
    : model === null
      ? 'Choose a model.'
      : model === 'file' && !file.trim()
        ? 'Give the path of a GGUF model file.'
        : families.length === 0
          ? 'Choose at least one family.'
          : typeof sizes === 'string'
            ? sizes.charAt(0).toUpperCase() + sizes.slice(1) + '.'
            : null;
  const toggle = (f: string) =>
    setFamilies(families.includes(f) ? families.filter((x) => x !== f) : setup.families.filter((x) => x === f || families.includes(x)));
  const start = async () => {
    if (problem || model === null || typeof sizes === 'string') return;
    setBusy(true);
    const job = await startDemo({
      dir: dir.trim(),
      model: model === 'file' ? file.trim() : model,
      preset,
      ...(families.length < setup.families.length ? { families: families as NonNullable<ApiInput<'startDemo'>['families']> } : {}),
      ...(sizes.length > 1 || (sizes.length === 1 && sizes[0] !== setup.registry.default) ? { registry: sizes } : {}),
    });
    setBusy(false);
    if (job) onStarted();
  };
  return (
    <form
      className="demo-run-form"
      onSubmit={(e) => {
        e.preventDefault();
        void start();
      }}
    >
      <NotedField
        label="Output folder"
        noteId="demo-run-dir-note"
        note="A new folder, or the folder of an earlier demo with the same options: it resumes, reusing what is stored."
      >
        <NoteInput value={dir} onChange={setDir} testId="demo-run-dir" noteId="demo-run-dir-note" />
      </NotedField>
      <fieldset className="demo-run-models">
        <legend>Model</legend>
        <label className={`choice${pulled ? '' : ' disabled'}`}>
          <input
            type="radio"
            name="demo-model"
            value="default"
            checked={model === 'default'}
            disabled={!pulled}
            onChange={() => setModel('default')}
            data-testid="demo-run-model-default"
          />
          <span>
            The default real model <code>{setup.defaultModel.source}</code>
            {pulled ? (
              <small className="muted demo-run-note">{pulled}</small>
            ) : (
              <small className="demo-run-note" data-testid="demo-run-not-pulled">
                Not pulled yet: pull it on the{' '}
                <button type="button" className="link" onClick={() => navigate({ view: 'models' })}>
                  Models view
                </button>
                , or run <code>{setup.defaultModel.pullCommand}</code> (491 MB).
              </small>
            )}
          </span>
        </label>
        <label className="choice">
          <input
            type="radio"
            name="demo-model"
            value="reference"
            checked={model === 'reference'}
            onChange={() => setModel('reference')}
            data-testid="demo-run-model-reference"
          />
          <span>
            Reference model (no real model; results are noise){' '}
            <small className="muted demo-run-note">a tiny generated model: the demo runs end to end in minutes, but its answers mean nothing</small>
          </span>
        </label>
        <label className="choice">
          <input type="radio" name="demo-model" value="file" checked={model === 'file'} onChange={() => setModel('file')} data-testid="demo-run-model-file" />
          <span>Another GGUF file or pulled source</span>
        </label>
        {model === 'file' && (
          <input
            type="text"
            className="demo-run-file"
            value={file}
            onChange={(e) => setFile(e.target.value)}
            placeholder="/path/to/model.gguf or pypi:… / hf:…"
            aria-label="Model file or source"
            spellCheck={false}
          />
        )}
      </fieldset>
      <NotedField label="Preset" noteId="demo-run-preset-note" note={PRESET_NOTE[preset]}>
        <select value={preset} onChange={(e) => setPreset(e.target.value as PresetName)} data-testid="demo-run-preset" aria-describedby="demo-run-preset-note">
          {(['quick', 'standard', 'full'] as const).map((name) => (
            <option key={name} value={name}>
              {presetText(setup, name)}
            </option>
          ))}
        </select>
      </NotedField>
      <fieldset className="demo-run-families">
        <legend>
          Families{' '}
          <span className="muted">
            ({families.length} of {setup.families.length})
          </span>
          <button type="button" className="btn ghost small" onClick={() => setFamilies(setup.families)}>
            All
          </button>
          <button type="button" className="btn ghost small" onClick={() => setFamilies([])} data-testid="demo-run-families-none">
            None
          </button>
        </legend>
        <div className="demo-run-family-list">
          {setup.families.map((f) => (
            <label key={f} className="choice">
              <input type="checkbox" checked={families.includes(f)} onChange={() => toggle(f)} data-family={f} />
              <span>{f}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <NotedField
        label="Registry sizes"
        noteId="demo-run-registry-note"
        note={`One size (${setup.registry.default} tools by default), or several (15, 30, 60) for accuracy against the registry size: each size is its own project, under growth/ in the folder.`}
      >
        <NoteInput value={registry} onChange={setRegistry} testId="demo-run-registry" noteId="demo-run-registry-note" />
      </NotedField>
      <div className="btn-row">
        <button type="submit" className="btn primary" disabled={Boolean(problem) || busy} data-testid="demo-run-start">
          {busy ? <span className="spinner" /> : null}Start the demo
        </button>
        {onBack && (
          <button type="button" className="btn ghost" onClick={onBack}>
            Back to the last demo
          </button>
        )}
        {problem && (
          <span className="small muted" role="status">
            {problem}
          </span>
        )}
      </div>
    </form>
  );
}

const STATUS_WORD: Record<JobStep['status'], string> = { done: 'done', running: 'running', waiting: 'waiting' };

function DemoRunProgress({ job, onAnother }: { job: JobInfo; onAnother: () => void }) {
  const act = useStudio((s) => s.jobAction);
  const openDemoProject = useStudio((s) => s.openDemoProject);
  const projectDir = useStudio((s) => s.project?.dir);
  const dir = typeof job.result?.dir === 'string' ? job.result.dir : null;
  const ended = job.status !== 'running' && job.status !== 'queued';
  return (
    <div className="demo-run-progress" data-testid="demo-run-progress" data-status={job.status}>
      <div className="job-head">
        <div className="ellipsis">
          <strong>{job.title}</strong>
          {dir ? (
            <span className="small muted">
              {' '}
              · in <code>{dir}</code>
            </span>
          ) : null}
        </div>
        <span
          className={`pill ${job.status === 'done' ? 'good' : job.status === 'failed' ? 'bad' : job.status === 'cancelled' || job.status === 'interrupted' ? 'warn' : 'accent'}`}
          data-testid="demo-run-status"
        >
          {job.status}
        </span>
      </div>
      {job.steps?.length ? (
        <ol className="run-steps" aria-label="Demo steps" data-testid="demo-run-steps">
          {job.steps.map((step) => (
            <li key={step.id} className={`run-step ${step.status}`} data-step={step.id} data-status={step.status}>
              <span className="run-step-icon" aria-hidden="true">
                {step.status === 'done' ? '✓' : step.status === 'running' && !ended ? <span className="spinner" /> : '○'}
              </span>
              <span className="run-step-label">{step.label}</span>
              <span className="run-step-counts tabular">{step.unit && step.total > 0 ? `${step.done} / ${step.total} ${step.unit}` : ''}</span>
              <span className="run-step-state small">{step.status === 'running' && ended ? 'stopped' : STATUS_WORD[step.status]}</span>
              {step.detail ? <span className="run-step-detail small muted">{step.detail}</span> : null}
            </li>
          ))}
        </ol>
      ) : (
        <p className="small muted">Starting the demo process (it loads the engine, then the model)…</p>
      )}
      <p className="small text-2 demo-run-message" aria-live="polite" data-testid="demo-run-message">
        {job.message ?? ''}
      </p>
      {job.error && (
        <div className="callout bad small">
          <strong>{job.error.code}</strong>: {job.error.message}
          {job.error.hint && <div>→ {job.error.hint}</div>}
        </div>
      )}
      <div className="btn-row" style={{ marginTop: 8 }}>
        {job.canCancel && (
          <button className="btn danger" onClick={() => void act(job.id, 'cancel')} data-testid="demo-run-cancel">
            {job.status === 'interrupted' ? 'Dismiss' : 'Cancel'}
          </button>
        )}
        {job.canResume && (
          <button className="btn primary" onClick={() => void act(job.id, 'resume')} data-testid="demo-run-resume">
            Resume
          </button>
        )}
        {job.status === 'done' && dir && dir !== projectDir && (
          <button className="btn primary" onClick={() => void openDemoProject(dir)} data-testid="demo-run-open">
            Open the demo project
          </button>
        )}
        {ended && (
          <button className="btn ghost" onClick={onAnother} data-testid="demo-run-another">
            Run another demo…
          </button>
        )}
      </div>
      {job.log?.length ? (
        <details className="demo-run-log">
          <summary className="small">
            Log ({job.log.length} lines, what <code>lots demo</code> prints)
          </summary>
          <pre>{job.log.join('\n')}</pre>
        </details>
      ) : null}
    </div>
  );
}

/** A labelled control with a note under it (the control names the note in its aria-describedby). */
function NotedField({ label, noteId, note, children }: { label: string; noteId: string; note: ReactNode; children: ReactNode }) {
  return (
    <div className="demo-run-field">
      <label className="field">
        <span>{label}</span>
        {children}
      </label>
      <small id={noteId} className="muted demo-run-note">
        {note}
      </small>
    </div>
  );
}

/** A plain text input described by a NotedField's note. */
function NoteInput({ value, onChange, testId, noteId }: { value: string; onChange: (v: string) => void; testId: string; noteId: string }) {
  return <input type="text" value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId} aria-describedby={noteId} spellCheck={false} />;
}

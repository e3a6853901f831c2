// The "Run the demo" form: output folder, model, preset, families and registry sizes, and its helpers.
import { useState } from 'react';
import type { ApiInput, DemoSetup } from '../../../shared/api';
import { useStudio } from '../../store/react';
import { NotedField, NoteInput } from './NotedField';

type ModelChoice = 'default' | 'reference' | 'file';

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

export function DemoRunForm({ setup, onStarted, onBack }: { setup: DemoSetup; onStarted: () => void; onBack?: () => void }) {
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

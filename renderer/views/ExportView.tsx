// Export of a task's approved space (or the proposal, marked as such): our space file, OpenAI and
// Anthropic tools arrays, an MCP allow-list, plain names; copy or save; the one-page report.
import { useEffect, useState, type KeyboardEvent } from 'react';
import { EXPORT_FORMATS, type ExportFormat } from '../../shared/api';
import { copyText, downloadText } from '../api/files';
import { Empty } from '../components/Empty';
import { useApi, useStudio } from '../store/react';
import { exportKeyOf } from '../store/export-slice';
import { ExportAllCard, ExportRefusal, McpServerField } from './ExportExtras';

const LABELS: Record<ExportFormat, [string, string]> = {
  space: ['Space JSON', 'our space file: pinned and deferred tools, rule, note, scores, provenance'],
  openai: ['OpenAI Chat tools', 'Chat Completions tools: pinned in full, deferred as name and short description'],
  'openai-responses': ['OpenAI Responses tools', 'Responses API tools: deferred ones with defer_loading, plus tool_search'],
  anthropic: ['Anthropic tools', 'Messages API tools: deferred ones with defer_loading, plus tool search'],
  mcp: ['MCP allow-list', 'allowedTools (pinned + deferred) and deferredTools, names as recorded'],
  'mcp-claude': ['MCP allow-list (Claude Agent SDK)', 'the same, names as mcp__<server>__<tool>'],
  names: ['Names', 'the pinned tools, one name per line'],
};

export function ExportView() {
  const api = useApi();
  const task = useStudio((s) => s.route.task);
  const format = useStudio((s) => s.exportFormat);
  const text = useStudio((s) => s.exportText);
  const key = useStudio((s) => s.exportKey);
  const version = useStudio((s) => s.dataVersion);
  const setFormat = useStudio((s) => s.setExportFormat);
  const loadExport = useStudio((s) => s.loadExport);
  const native = useStudio((s) => s.info?.nativeDialogs === true);
  const saveExportTo = useStudio((s) => s.saveExportTo);
  const saveReportTo = useStudio((s) => s.saveReportTo);
  const notify = useStudio((s) => s.notify);
  const fail = useStudio((s) => s.fail);
  const status = useStudio((s) => s.project?.tasks.find((t) => t.task === task)?.space);
  const navigate = useStudio((s) => s.navigate);
  const mcpServer = useStudio((s) => s.mcpServer);
  const [copied, setCopied] = useState(false);
  // "Copied" is about the text on screen: a new text clears it (reset while rendering, not in an effect).
  const [textShown, setCopiedShown] = useState(text);
  if (textShown !== text) {
    setCopiedShown(text);
    setCopied(false);
  }

  useEffect(() => {
    if (task && key !== exportKeyOf(task, format, version, mcpServer)) void loadExport(task);
  }, [task, format, version, key, mcpServer, loadExport]);

  if (!task) return <Empty title="No task selected">Pick a task on the project view.</Empty>;

  const copy = async () => {
    if (text && (await copyText(text.text))) {
      setCopied(true);
      notify({ kind: 'success', title: 'Copied', message: `${text.filename} is on the clipboard` });
    }
  };
  const save = async () => {
    if (!text) return;
    if (!native) return downloadText(text.filename, text.text, text.mime);
    const paths = await api.pickPath({ kind: 'save', defaultName: text.filename }).catch((e) => (fail(e, 'No dialog'), null));
    if (paths?.[0]) await saveExportTo(task, paths[0]);
  };
  const report = async () => {
    try {
      const r = await api.renderReport({ task });
      if (!native) return downloadText(r.filename, r.html, 'text/html');
      const paths = await api.pickPath({ kind: 'save', defaultName: r.filename });
      if (paths?.[0]) await saveReportTo(task, paths[0]);
    } catch (e) {
      fail(e, 'The report was not produced');
    }
  };

  const onFormatKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[e.key];
    const i = EXPORT_FORMATS.indexOf(format);
    const next =
      e.key === 'Home' ? 0 : e.key === 'End' ? EXPORT_FORMATS.length - 1 : step === undefined ? -1 : (i + step + EXPORT_FORMATS.length) % EXPORT_FORMATS.length;
    if (next < 0) return;
    e.preventDefault();
    const f = EXPORT_FORMATS[next]!;
    setFormat(f);
    e.currentTarget.querySelector<HTMLButtonElement>(`[data-format="${f}"]`)?.focus();
  };

  return (
    <div className="export-layout">
      <div className="card">
        <div className="card-head">
          <h2>Format</h2>
        </div>
        {/* One Tab stop for the group (the checked format); arrows, Home and End move the choice (ARIA radiogroup). */}
        <div className="format-list" role="radiogroup" aria-label="Export format" onKeyDown={onFormatKey}>
          {EXPORT_FORMATS.map((f) => (
            <button
              key={f}
              role="radio"
              aria-checked={format === f}
              tabIndex={format === f ? 0 : -1}
              className={`format-item${format === f ? ' selected' : ''}`}
              onClick={() => setFormat(f)}
              data-format={f}
            >
              <strong>{LABELS[f][0]}</strong>
              <span className="small muted">{LABELS[f][1]}</span>
            </button>
          ))}
        </div>
        <McpServerField />
        <div className="card-head" style={{ marginTop: 16 }}>
          <h2>Report</h2>
        </div>
        <p className="small text-2" style={{ marginBottom: 8 }}>
          One self-contained HTML page for stakeholders — ranking with intervals, budget curve, kept tools and the note. Prints to PDF.
        </p>
        <button className="btn" onClick={() => void report()} data-testid="save-report">
          {native ? 'Save report…' : 'Download report (HTML)'}
        </button>
        <ExportAllCard />
      </div>
      <div className="card export-preview">
        <div className="card-head">
          <div>
            <h2>
              {LABELS[format][0]} <span className="muted small mono">{text?.filename}</span>
            </h2>
            <ExportRefusal />
            {text &&
              (text.version === null ? (
                <div className="callout warn small" style={{ marginTop: 6 }}>
                  No approved version: this is the <strong>proposal</strong>.{' '}
                  <button className="btn small" onClick={() => navigate({ view: 'space' })}>
                    Review & approve…
                  </button>
                </div>
              ) : (
                <div className="small good" style={{ marginTop: 4 }} data-testid="export-version">
                  approved version v{text.version}
                  {status?.status === 'changed' ? ' · scores changed since' : ''}
                </div>
              ))}
          </div>
          <div className="btn-row">
            <button className="btn" disabled={!text} onClick={() => void copy()} data-testid="copy-export">
              {copied ? 'Copied ✓' : 'Copy'}
            </button>
            <button className="btn primary" disabled={!text} onClick={() => void save()} data-testid="save-export">
              {native ? 'Save…' : 'Download'}
            </button>
          </div>
        </div>
        <pre className="code export-text" data-testid="export-text">
          {text?.text ?? ''}
        </pre>
      </div>
    </div>
  );
}

// The project home's report of the last import: what was added, rejected lines and conflicts.
import { useState } from 'react';
import { ImportUnlabelled } from '../../components/ImportTasks';
import { useStudio } from '../../store/react';

export function ImportReport() {
  const report = useStudio((s) => s.lastImport);
  const clear = useStudio((s) => s.clearImport);
  const [open, setOpen] = useState(true);
  if (!report) return null;
  const rejected = report.files.flatMap((f) => f.rejected.map((r) => ({ file: f.file, ...r })));
  const more = report.files.reduce((n, f) => n + f.moreRejected, 0);
  const conflicts = report.files.flatMap((f) => f.conflicts);
  return (
    <div className={`callout ${rejected.length || conflicts.length ? 'warn' : 'good'}`} style={{ marginTop: 14 }} data-testid="import-report">
      <div style={{ display: 'flex', justifyContent: 'space-between', gap: 12 }}>
        <div>
          <strong>Last import:</strong>{' '}
          {report.files
            .map(
              (f) =>
                `${f.file} (${f.format}): ${f.added} added, ${f.duplicates} already there` +
                (f.folded ? `, ${f.folded} record${f.folded === 1 ? '' : 's'} read into another's trace (a chained or retrieved response)` : ''),
            )
            .join(' · ')}
        </div>
        <div className="btn-row">
          {(rejected.length > 0 || conflicts.length > 0) && (
            <button className="btn small" onClick={() => setOpen(!open)}>
              {open ? 'Hide' : 'Show'} problems
            </button>
          )}
          <button className="btn ghost small" onClick={clear} aria-label="Dismiss the import report">
            ✕
          </button>
        </div>
      </div>
      <ImportUnlabelled />
      {open && (rejected.length > 0 || conflicts.length > 0) && (
        <ul className="mono small" style={{ margin: '8px 0 0', paddingLeft: 18, maxHeight: 180, overflow: 'auto' }}>
          {rejected.map((r) => (
            <li key={`${r.file}:${r.line}:${r.message}`}>
              {r.line > 0 ? `${r.file}:${r.line}` : r.file}: {r.message}
            </li>
          ))}
          {more > 0 && <li>… and {more} more rejected lines</li>}
          {conflicts.map((c) => (
            <li key={c.id}>{c.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

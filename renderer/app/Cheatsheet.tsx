// The `?` cheatsheet: every keyboard shortcut in one place.
import { useEffect, useRef } from 'react';
import { useStudio } from '../store/react';
import { VIEW_DEFS } from '../store/views';

const GENERAL: [string, string][] = [
  ['?', 'this cheatsheet'],
  ['Esc', 'close a dialog'],
  ['[  /  ]', 'K − 1 / K + 1 (task views)'],
  ['/', 'search requests (heatmap)'],
];

const HEATMAP: [string, string][] = [
  ['← ↑ → ↓', 'move between cells'],
  ['Enter', 'open the trace of the cell'],
  ['s', 'sort by the column under the cursor'],
];

const SPACE: [string, string][] = [
  ['↑ / ↓  (j / k)', 'move between tools'],
  ['a  or  +', 'keep (add) the tool'],
  ['x  or  −', 'drop (remove) the tool'],
  ['p', 'pin / unpin (always kept)'],
  ['b', 'ban / unban (never kept)'],
  ['n', 'write the note'],
  ['Ctrl + Enter', 'approve the space'],
];

export function Cheatsheet() {
  const open = useStudio((s) => s.cheatsheet);
  const setOpen = useStudio((s) => s.setCheatsheet);
  const transport = useStudio((s) => s.info?.transport);
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) closeRef.current?.focus();
  }, [open]);
  if (!open) return null;
  const mod = transport === 'electron' ? 'Ctrl/⌘ + ' : 'Alt + ';
  const section = (title: string, rows: [string, string][]) => (
    <>
      <h3 style={{ margin: '12px 0 6px' }}>{title}</h3>
      <div className="cheatsheet-grid">
        {rows.map(([k, what]) => (
          <div key={k}>
            <span>{what}</span>
            <kbd>{k}</kbd>
          </div>
        ))}
      </div>
    </>
  );
  return (
    <div className="modal-backdrop" onClick={() => setOpen(false)} onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
      <div className="modal" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" onClick={(e) => e.stopPropagation()}>
        <div className="modal-head">
          <h2>Keyboard shortcuts</h2>
          <button ref={closeRef} className="btn ghost small" onClick={() => setOpen(false)} aria-label="Close">
            ✕
          </button>
        </div>
        {section('Views', [
          ...VIEW_DEFS.slice(0, 9).map((v, i): [string, string] => [`${mod}${i + 1}`, v.label]),
          ...(transport === 'electron' ? [] : VIEW_DEFS.flatMap((v): [string, string][] => (v.key ? [[`${mod}${v.key.label}`, v.label]] : []))),
        ])}
        {section('Everywhere', GENERAL)}
        {section('Heatmap', HEATMAP)}
        {section('Space review', SPACE)}
      </div>
    </div>
  );
}

// In a browser there is no native folder dialog: the path (on the engine's machine) is typed in.
import { useEffect, useRef, useState } from 'react';

export function PathPrompt({ mode, onSubmit, onClose }: { mode: 'open' | 'new'; onSubmit: (path: string) => void; onClose: () => void }) {
  const [path, setPath] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <form
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-label={mode === 'open' ? 'Open a project' : 'Create a project'}
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => e.key === 'Escape' && onClose()}
        onSubmit={(e) => {
          e.preventDefault();
          if (path.trim()) onSubmit(path.trim());
        }}
      >
        <div className="modal-head">
          <h2>{mode === 'open' ? 'Open a project folder' : 'Create a project folder'}</h2>
          <button type="button" className="btn ghost small" onClick={onClose} aria-label="Close">
            ✕
          </button>
        </div>
        <p className="text-2" style={{ marginBottom: 10 }}>
          The path is on the machine running the engine ({mode === 'open' ? 'a folder holding project.json' : 'a new or empty folder'}).
        </p>
        <div className="field-row">
          <input
            ref={input}
            className="grow"
            type="text"
            value={path}
            onChange={(e) => setPath(e.target.value)}
            placeholder="/home/me/projects/my-agent"
            aria-label="Project folder"
          />
          <button className="btn primary" type="submit" disabled={!path.trim()}>
            {mode === 'open' ? 'Open' : 'Create'}
          </button>
        </div>
      </form>
    </div>
  );
}

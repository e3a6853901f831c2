// A labelled demo-form control with a note under it, and the plain text input such a note describes.
import type { ReactNode } from 'react';

/** A labelled control with a note under it (the control names the note in its aria-describedby). */
export function NotedField({ label, noteId, note, children }: { label: string; noteId: string; note: ReactNode; children: ReactNode }) {
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
export function NoteInput({ value, onChange, testId, noteId }: { value: string; onChange: (v: string) => void; testId: string; noteId: string }) {
  return <input type="text" value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId} aria-describedby={noteId} spellCheck={false} />;
}

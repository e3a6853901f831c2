// Errors and confirmations, shown over the view the user is looking at, with what to do next.
import { useShallow } from 'zustand/react/shallow';
import { useStudio } from '../store/react';

export function Notices() {
  const notices = useStudio(useShallow((s) => s.notices));
  const dismiss = useStudio((s) => s.dismiss);
  if (notices.length === 0) return null;
  return (
    <div className="notices" role="status" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className={`notice ${n.kind}`} role={n.kind === 'error' ? 'alert' : undefined} data-testid={`notice-${n.kind}`}>
          <div className="notice-title">
            {n.title}
            {n.code && n.kind === 'error' ? <span className="muted tiny"> · {n.code}</span> : null}
          </div>
          <button className="btn ghost small notice-close" onClick={() => dismiss(n.id)} aria-label="Dismiss">
            ✕
          </button>
          {n.message && <div className="notice-message">{n.message}</div>}
          {n.hint && <div className="notice-hint">→ {n.hint}</div>}
        </div>
      ))}
    </div>
  );
}

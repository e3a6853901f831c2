// An empty state that says what to do next, with the action at hand.
import type { ReactNode } from 'react';

export function Empty({ title, children, actions }: { title: string; children?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="empty" data-testid="empty-state">
      <h2>{title}</h2>
      {children && <div className="text-2">{children}</div>}
      {actions && <div className="btn-row">{actions}</div>}
    </div>
  );
}

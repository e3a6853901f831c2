// A tool's state in a draft space (pinned, deferred, hidden: shared/project/spaces.ts) and the Defer
// toggle, for the Space view's rows. Kept apart from SpaceView.tsx so the three states stay one small part.
import type { ToolState } from '../../shared/project/spaces';

const PILL: Record<ToolState, { className: string; title: string }> = {
  pinned: { className: 'pill good', title: 'documented in full, loaded up front' },
  deferred: { className: 'pill accent', title: 'callable, not loaded up front (defer_loading, or name and short description only)' },
  hidden: { className: 'pill', title: 'not offered' },
};

export function ToolStatePill({ state }: { state: ToolState }) {
  return (
    <span className={PILL[state].className} title={PILL[state].title} data-state={state}>
      {state}
    </span>
  );
}

export function DeferButton({ tool, deferred, onDefer, disabledWhy }: { tool: string; deferred: boolean; onDefer(): void; disabledWhy?: string }) {
  return (
    <button
      className="btn ghost small"
      disabled={disabledWhy !== undefined}
      onClick={(e) => {
        e.stopPropagation();
        onDefer();
      }}
      aria-pressed={deferred}
      aria-label={`Defer ${tool}`}
      title={disabledWhy ?? 'Callable, not loaded up front; stays deferred in later updates'}
    >
      defer
    </button>
  );
}

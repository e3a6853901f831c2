// The audience's view-only link (issue 40, item 15): the web host answers getAppInfo with viewOnly and
// refuses every write per method (shared/api/access.ts). The views read it here to disable what the link
// may not do, each disabled control saying why, instead of letting a click end in a 403 notice.
import { useStudio } from '../store/react';

/** Why a control is disabled under the view-only link (its title and the banner's words). */
export const VIEW_ONLY_REASON = 'view-only link: this link can look, not change anything';

/** True when the page was opened with the view-only token. */
export function useViewOnly(): boolean {
  return useStudio((s) => s.info?.viewOnly === true);
}

/** True once the page knows it may write (the full link): a part that reads settings the view-only link
 * may not read (the demo setup, the scoring server) waits for this rather than asking and being refused. */
export function useCanWrite(): boolean {
  return useStudio((s) => s.info !== null && s.info.viewOnly !== true);
}

/** One line at the top of a view that has write actions, under the view-only link. */
export function ViewOnlyNote({ what }: { what: string }) {
  const viewOnly = useViewOnly();
  if (!viewOnly) return null;
  return (
    <div className="callout small view-only-note" role="note" data-testid="view-only-note" style={{ marginBottom: 12 }}>
      <strong>View-only link.</strong> {what} are off here: this link can look at the project, not change it. Use the full link that <code>lots ui</code>{' '}
      printed to make changes.
    </div>
  );
}
